package dev.agcore.run.redis;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of {@link RedisRunStore}: each change of a run is one script, so the
 * check of its status and owner and the change are atomic, and a run is never claimed
 * twice. Every key lives under one hash tag ({@code {runs}}), so every script runs in one
 * cluster slot. KEYS[1] is always the queue (declaring the slot); ARGV[1] is the base of
 * the store's keys ({@code <prefix>{runs}:}) and ARGV[2] the prefix of its pub/sub
 * channels. Times come from the store's clock as arguments ({@code ...Ms} epoch
 * milliseconds to compare, ISO-8601 text to keep), so all instances share the clock of
 * the application and tests can move it.
 * <p>
 * Run hashes hold text fields: {@code status}, {@code attempts}, {@code owner},
 * {@code lease} (ms), {@code leaseAt}, {@code entry} (the queue entry of a queued or
 * running run), {@code events} (the last event sequence), {@code cancel}, timestamps and
 * the request's fields. A queued run is in exactly one of: the queue stream, the
 * {@code delayed} sorted set (a future {@code notBefore}) or its session's
 * {@code blocked} sorted set (its session had {@code maxPerSession} runs running when it
 * was read); a blocked run is moved back to the queue whenever a run of its session
 * leaves the queue or stops running.
 */
final class RunScripts {

	private static final String PRELUDE = """
			local base = ARGV[1]
			local channels = ARGV[2]
			local queue = KEYS[1]
			local GROUP = 'workers'
			local function runKey(id)
				return base .. 'run:' .. id
			end
			local function group()
				-- BUSYGROUP when it exists: the error is the answer, not a failure
				redis.pcall('XGROUP', 'CREATE', queue, GROUP, '0', 'MKSTREAM')
			end
			local function reply(key)
				return cjson.encode({run = redis.call('HGETALL', key)})
			end
			local function enqueue(id, key)
				local entry = redis.call('XADD', queue, '*', 'run', id)
				redis.call('HSET', key, 'entry', entry)
				redis.call('PUBLISH', channels .. 'submitted', id)
			end
			local function promote(session)
				local next = redis.call('ZPOPMIN', base .. 'blocked:' .. session)
				if #next > 0 then
					enqueue(next[1], runKey(next[1]))
				end
			end
			local function event(id, type, data, at)
				local key = runKey(id)
				local sequence = redis.call('HINCRBY', key, 'events', 1)
				redis.call('XADD', key .. ':events', '0-' .. sequence, 'type', type, 'data', data, 'at', at)
				redis.call('PUBLISH', channels .. 'appended', id)
				return sequence
			end
			local function leaveRunning(id, key)
				local session = redis.call('HGET', key, 'session')
				local entry = redis.call('HGET', key, 'entry')
				if entry then
					redis.call('XACK', queue, GROUP, entry)
					redis.call('XDEL', queue, entry)
				end
				redis.call('HDEL', key, 'owner', 'lease', 'leaseAt', 'entry')
				redis.call('ZREM', base .. 'leases', id)
				redis.call('SREM', base .. 'running:' .. session, id)
				promote(session)
			end
			local function finalize(id, key, status, at, atMs)
				redis.call('HSET', key, 'status', status, 'finished', at)
				redis.call('ZADD', base .. 'finished', atMs, id)
			end
			""";

	/**
	 * Queues a run, or answers the run of its scoped idempotency key when its request had
	 * the same fingerprint. ARGV: 3 run id, 4 scoped idempotency key or '', 5 now ms, 6
	 * not-before ms or '', 7 session, 8 the request's fingerprint or '', then the run's
	 * field/value pairs. Returns the run, or <code>{"conflict": true}</code> when the key
	 * stands for a run of another request (nothing is queued).
	 */
	static final RedisScript<String> SUBMIT = RedisScript.of(PRELUDE + """
			group()
			local id = ARGV[3]
			local key = runKey(id)
			if ARGV[4] ~= '' then
				local idempotency = base .. 'key:' .. ARGV[4]
				local existing = redis.call('GET', idempotency)
				if existing and redis.call('EXISTS', runKey(existing)) == 1 then
					if redis.call('HGET', runKey(existing), 'fingerprint') ~= ARGV[8] then
						return cjson.encode({conflict = true})
					end
					return reply(runKey(existing))
				end
				redis.call('SET', idempotency, id)
				redis.call('HSET', key, 'idempotencyKey', ARGV[4], 'fingerprint', ARGV[8])
			end
			local created = redis.call('INCR', base .. 'created')
			redis.call('HSET', key, 'created_order', created, 'status', 'QUEUED', 'attempts', 0, 'events', 0,
				unpack(ARGV, 9))
			redis.call('ZADD', base .. 'session:' .. ARGV[7], created, id)
			local notBefore = tonumber(ARGV[6])
			if notBefore and notBefore > tonumber(ARGV[5]) then
				redis.call('ZADD', base .. 'delayed', notBefore, id)
			else
				enqueue(id, key)
			end
			return reply(key)
			""", String.class);

	/**
	 * Claims runs: moves due delayed runs to the queue, takes over or fails runs whose
	 * lease expired, then reads new queue entries for the owner's consumer. ARGV: 3 owner,
	 * 4 max, 5 max per session, 6 max attempts, 7 now ms, 8 now text, 9 lease-until ms, 10
	 * lease-until text, 11 failed event data, 12 failed message, 13 cancelled event data.
	 * Returns the claimed runs.
	 */
	static final RedisScript<String> CLAIM = RedisScript.of(PRELUDE + """
			group()
			local owner = ARGV[3]
			local max = tonumber(ARGV[4])
			local maxPerSession = tonumber(ARGV[5])
			local maxAttempts = tonumber(ARGV[6])
			local now = tonumber(ARGV[7])
			local at = ARGV[8]
			local claimed = {}
			local function take(id, key, entry)
				redis.call('HINCRBY', key, 'attempts', 1)
				redis.call('HSET', key, 'status', 'RUNNING', 'owner', owner, 'lease', ARGV[9], 'leaseAt', ARGV[10],
					'entry', entry)
				redis.call('HDEL', key, 'result', 'error', 'message', 'finished')
				if not redis.call('HGET', key, 'started') then
					redis.call('HSET', key, 'started', at)
				end
				redis.call('ZADD', base .. 'leases', ARGV[9], id)
				claimed[#claimed + 1] = redis.call('HGETALL', key)
			end
			for _, id in ipairs(redis.call('ZRANGEBYSCORE', base .. 'delayed', '-inf', now, 'LIMIT', 0, 1000)) do
				redis.call('ZREM', base .. 'delayed', id)
				local key = runKey(id)
				if redis.call('HGET', key, 'status') == 'QUEUED' then
					enqueue(id, key)
				end
			end
			for _, id in ipairs(redis.call('ZRANGEBYSCORE', base .. 'leases', '-inf', now, 'LIMIT', 0, 100)) do
				local key = runKey(id)
				if redis.call('HGET', key, 'status') ~= 'RUNNING' then
					redis.call('ZREM', base .. 'leases', id)
				elseif redis.call('HGET', key, 'cancel') == '1' then
					-- its worker died before it could stop: nothing left to run
					leaveRunning(id, key)
					finalize(id, key, 'CANCELLED', at, now)
					event(id, 'cancelled', ARGV[13], at)
				elseif tonumber(redis.call('HGET', key, 'attempts')) >= maxAttempts then
					leaveRunning(id, key)
					finalize(id, key, 'FAILED', at, now)
					redis.call('HSET', key, 'error', 'lease_expired', 'message', ARGV[12])
					event(id, 'failed', ARGV[11], at)
				elseif #claimed < max then
					local entry = redis.call('HGET', key, 'entry')
					-- the entry moves to this worker's pending list, its idle time reset
					redis.call('XCLAIM', queue, GROUP, owner, 0, entry, 'JUSTID')
					take(id, key, entry)
				end
			end
			while #claimed < max do
				local read = redis.call('XREADGROUP', 'GROUP', GROUP, owner, 'COUNT', max - #claimed,
					'STREAMS', queue, '>')
				if not read or #read[1][2] == 0 then
					break
				end
				for _, message in ipairs(read[1][2]) do
					local entry = message[1]
					local id = message[2][2]
					local key = runKey(id)
					if redis.call('HGET', key, 'status') ~= 'QUEUED' or redis.call('HGET', key, 'entry') ~= entry then
						-- a stale entry: its run was cancelled, purged or queued again
						redis.call('XACK', queue, GROUP, entry)
						redis.call('XDEL', queue, entry)
					else
						local session = redis.call('HGET', key, 'session')
						local running = base .. 'running:' .. session
						if redis.call('SCARD', running) >= maxPerSession then
							-- waits, not lost: queued again when a run of its session ends
							redis.call('XACK', queue, GROUP, entry)
							redis.call('XDEL', queue, entry)
							redis.call('HDEL', key, 'entry')
							redis.call('ZADD', base .. 'blocked:' .. session, redis.call('HGET', key, 'created_order'), id)
						else
							redis.call('SADD', running, id)
							take(id, key, entry)
						end
					end
				end
			end
			return cjson.encode({runs = claimed})
			""", String.class);

	/**
	 * Renews a lease. ARGV: 3 run id, 4 owner, 5 lease-until ms, 6 lease-until text.
	 * Returns 0 when lost, 1 when held, 2 when cancelling was requested.
	 */
	static final RedisScript<Long> HEARTBEAT = RedisScript.of(PRELUDE + """
			local key = runKey(ARGV[3])
			if redis.call('HGET', key, 'status') ~= 'RUNNING' or redis.call('HGET', key, 'owner') ~= ARGV[4] then
				return 0
			end
			redis.call('HSET', key, 'lease', ARGV[5], 'leaseAt', ARGV[6])
			redis.call('ZADD', base .. 'leases', ARGV[5], ARGV[3])
			local entry = redis.call('HGET', key, 'entry')
			if entry then
				-- resets the entry's idle time, so XPENDING shows live workers as live
				redis.call('XCLAIM', queue, GROUP, ARGV[4], 0, entry, 'JUSTID')
			end
			if redis.call('HGET', key, 'cancel') == '1' then
				return 2
			end
			return 1
			""", Long.class);

	/**
	 * Writes how a run ended if the owner still holds it. ARGV: 3 run id, 4 owner, 5
	 * status, 6 now text, 7 now ms, 8 result or '', 9 error code or '', 10 error message.
	 * Returns 1 if written.
	 */
	static final RedisScript<Long> FINISH = RedisScript.of(PRELUDE + """
			local id = ARGV[3]
			local key = runKey(id)
			if redis.call('HGET', key, 'status') ~= 'RUNNING' or redis.call('HGET', key, 'owner') ~= ARGV[4] then
				return 0
			end
			leaveRunning(id, key)
			redis.call('HDEL', key, 'result', 'error', 'message')
			if ARGV[8] ~= '' then
				redis.call('HSET', key, 'result', ARGV[8])
			end
			if ARGV[9] ~= '' then
				redis.call('HSET', key, 'error', ARGV[9], 'message', ARGV[10])
			end
			if ARGV[5] == 'INTERRUPTED' then
				redis.call('HSET', key, 'status', 'INTERRUPTED')
			else
				finalize(id, key, ARGV[5], ARGV[6], tonumber(ARGV[7]))
			end
			return 1
			""", Long.class);

	/** Gives a run back to the queue if the owner holds it. ARGV: 3 run id, 4 owner. Returns 1 if given back. */
	static final RedisScript<Long> RELEASE = RedisScript.of(PRELUDE + """
			local id = ARGV[3]
			local key = runKey(id)
			if redis.call('HGET', key, 'status') ~= 'RUNNING' or redis.call('HGET', key, 'owner') ~= ARGV[4] then
				return 0
			end
			leaveRunning(id, key)
			redis.call('HSET', key, 'status', 'QUEUED')
			enqueue(id, key)
			return 1
			""", Long.class);

	/**
	 * Cancels a run: a queued or interrupted one at once, a running one by request.
	 * ARGV: 3 run id, 4 now text, 5 now ms, 6 cancelled event data. Returns the run, or
	 * {@code {"missing":true}}.
	 */
	static final RedisScript<String> CANCEL = RedisScript.of(PRELUDE + """
			local id = ARGV[3]
			local key = runKey(id)
			local status = redis.call('HGET', key, 'status')
			if not status then
				return cjson.encode({missing = true})
			end
			if status == 'QUEUED' then
				local session = redis.call('HGET', key, 'session')
				local delayed = redis.call('ZREM', base .. 'delayed', id)
				local blocked = redis.call('ZREM', base .. 'blocked:' .. session, id)
				local entry = redis.call('HGET', key, 'entry')
				if entry then
					redis.call('XDEL', queue, entry)
					redis.call('HDEL', key, 'entry')
				end
				if delayed == 0 and blocked == 0 then
					promote(session)
				end
			end
			if status == 'QUEUED' or status == 'INTERRUPTED' then
				finalize(id, key, 'CANCELLED', ARGV[4], tonumber(ARGV[5]))
				event(id, 'cancelled', ARGV[6], ARGV[4])
			elseif status == 'RUNNING' then
				redis.call('HSET', key, 'cancel', '1')
			end
			return reply(key)
			""", String.class);

	/**
	 * Queues an interrupted run again with the human's input. ARGV: 3 run id, 4 resume
	 * JSON. Returns the run, {@code {"missing":true}} or {@code {"status":...}} when it is
	 * not interrupted.
	 */
	static final RedisScript<String> RESUME = RedisScript.of(PRELUDE + """
			group()
			local id = ARGV[3]
			local key = runKey(id)
			local status = redis.call('HGET', key, 'status')
			if not status then
				return cjson.encode({missing = true})
			end
			if status ~= 'INTERRUPTED' then
				return cjson.encode({status = status})
			end
			redis.call('HSET', key, 'status', 'QUEUED', 'resume', ARGV[4], 'attempts', 0)
			redis.call('HDEL', key, 'result', 'error', 'message', 'cancel')
			enqueue(id, key)
			return reply(key)
			""", String.class);

	/**
	 * Appends an event, numbered one more than the run's last. ARGV: 3 run id, 4 type, 5
	 * data, 6 now text. Returns the sequence, or 0 for an unknown run.
	 */
	static final RedisScript<Long> APPEND = RedisScript.of(PRELUDE + """
			if redis.call('EXISTS', runKey(ARGV[3])) == 0 then
				return 0
			end
			return event(ARGV[3], ARGV[4], ARGV[5], ARGV[6])
			""", Long.class);

	/** Lists a session's runs newest first. ARGV: 3 session, 4 offset, 5 limit. Returns the runs. */
	static final RedisScript<String> LIST = RedisScript.of(PRELUDE + """
			local offset = tonumber(ARGV[4])
			local ids = redis.call('ZREVRANGE', base .. 'session:' .. ARGV[3], offset, offset + tonumber(ARGV[5]) - 1)
			local runs = {}
			for _, id in ipairs(ids) do
				local run = redis.call('HGETALL', runKey(id))
				if #run > 0 then
					runs[#runs + 1] = run
				end
			end
			return cjson.encode({runs = runs})
			""", String.class);

	/**
	 * Removes runs that finished before a time, with their events and index entries.
	 * ARGV: 3 cutoff ms (exclusive), 4 most to remove. Returns how many were removed.
	 */
	static final RedisScript<Long> PURGE = RedisScript.of(PRELUDE + """
			local ids = redis.call('ZRANGEBYSCORE', base .. 'finished', '-inf', '(' .. ARGV[3], 'LIMIT', 0,
				tonumber(ARGV[4]))
			for _, id in ipairs(ids) do
				local key = runKey(id)
				local session = redis.call('HGET', key, 'session')
				local idempotency = redis.call('HGET', key, 'idempotency')
				if session then
					redis.call('ZREM', base .. 'session:' .. session, id)
				end
				-- runs queued before keys were scoped kept their raw key
				if idempotency and redis.call('GET', base .. 'idempotency:' .. idempotency) == id then
					redis.call('DEL', base .. 'idempotency:' .. idempotency)
				end
				local scoped = redis.call('HGET', key, 'idempotencyKey')
				if scoped and redis.call('GET', base .. 'key:' .. scoped) == id then
					redis.call('DEL', base .. 'key:' .. scoped)
				end
				redis.call('DEL', key, key .. ':events')
				redis.call('ZREM', base .. 'finished', id)
			end
			return #ids
			""", Long.class);

	private RunScripts() {
	}

}
