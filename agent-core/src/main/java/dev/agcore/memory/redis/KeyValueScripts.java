package dev.agcore.memory.redis;

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of {@link RedisKeyValueStore}. KEYS are always a namespace's items
 * (hash), its index by creation time and its index by last write (sorted sets, scores in
 * microseconds of the server's clock, so all instances agree); ARGV[1] is the time-to-live
 * in microseconds (0: none). Redis 7.0 cannot expire hash fields, so an item older than
 * the time-to-live is filtered out on read and purged on every write and listing.
 */
final class KeyValueScripts {

	private static final String PRELUDE = """
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
			local ttl = tonumber(ARGV[1])
			local function remove(keys)
				for i = 1, #keys, 1000 do
					local last = math.min(i + 999, #keys)
					redis.call('HDEL', KEYS[1], unpack(keys, i, last))
					redis.call('ZREM', KEYS[2], unpack(keys, i, last))
					redis.call('ZREM', KEYS[3], unpack(keys, i, last))
				end
			end
			local function purge()
				if ttl > 0 then
					remove(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', string.format('%.0f', now - ttl)))
				end
			end
			local function live(updated)
				return updated and (ttl <= 0 or tonumber(updated) > now - ttl)
			end
			""";

	// writes ARGV[4] at key ARGV[3], keeping its creation time, drops the least recently
	// written beyond the capacity ARGV[2] and renews the namespace's expiry
	private static final String WRITE = """
			local function write()
				local stamp = string.format('%.0f', now)
				redis.call('ZADD', KEYS[2], 'NX', stamp, ARGV[3])
				redis.call('ZADD', KEYS[3], stamp, ARGV[3])
				redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
				local excess = redis.call('HLEN', KEYS[1]) - tonumber(ARGV[2])
				if excess > 0 then
					remove(redis.call('ZRANGE', KEYS[3], 0, excess - 1))
				end
				if ttl > 0 then
					local millis = math.ceil(ttl / 1000)
					redis.call('PEXPIRE', KEYS[1], millis)
					redis.call('PEXPIRE', KEYS[2], millis)
					redis.call('PEXPIRE', KEYS[3], millis)
				end
			end
			""";

	/**
	 * Writes an item, keeping its creation time, then drops the least recently written
	 * beyond the capacity and renews the namespace's expiry. ARGV: ttl, max items, key,
	 * item JSON.
	 */
	static final RedisScript<Long> PUT = RedisScript.of(PRELUDE + WRITE + """
			purge()
			write()
			return 1
			""", Long.class);

	/**
	 * Writes an item as {@link #PUT} does, only if the key has no live item (expired ones
	 * were just purged); returns 1 if written, 0 if not. ARGV: as {@link #PUT}.
	 */
	static final RedisScript<Long> PUT_IF_ABSENT = RedisScript.of(PRELUDE + WRITE + """
			purge()
			if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 1 then
				return 0
			end
			write()
			return 1
			""", Long.class);

	/** Reads an item: its JSON, creation and last write time; empty if none. ARGV: ttl, key. */
	@SuppressWarnings("rawtypes")
	static final RedisScript<List> FIND = RedisScript.of(PRELUDE + """
			local updated = redis.call('ZSCORE', KEYS[3], ARGV[2])
			local item = redis.call('HGET', KEYS[1], ARGV[2])
			if not item or not live(updated) then
				return {}
			end
			return {item, redis.call('ZSCORE', KEYS[2], ARGV[2]) or updated, updated}
			""", List.class);

	/** Removes an item; returns 1 if there was a live one. ARGV: ttl, key. */
	static final RedisScript<Long> DELETE = RedisScript.of(PRELUDE + """
			local wasLive = live(redis.call('ZSCORE', KEYS[3], ARGV[2]))
			local removed = redis.call('HDEL', KEYS[1], ARGV[2])
			redis.call('ZREM', KEYS[2], ARGV[2])
			redis.call('ZREM', KEYS[3], ARGV[2])
			if removed == 1 and wasLive then
				return 1
			end
			return 0
			""", Long.class);

	/**
	 * Lists items oldest first (ties by key) as key, created, updated, JSON quadruples.
	 * ARGV: ttl, lowest creation score (exclusive, or -inf), key prefix, offset, limit.
	 */
	@SuppressWarnings("rawtypes")
	static final RedisScript<List> LIST = RedisScript.of(PRELUDE + """
			purge()
			local members = redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[2], '+inf', 'WITHSCORES')
			local prefix = ARGV[3]
			local skip = tonumber(ARGV[4])
			local limit = tonumber(ARGV[5])
			local out = {}
			for i = 1, #members, 2 do
				local key = members[i]
				if string.sub(key, 1, #prefix) == prefix then
					local item = redis.call('HGET', KEYS[1], key)
					local updated = redis.call('ZSCORE', KEYS[3], key)
					if item and updated then
						if skip > 0 then
							skip = skip - 1
						else
							out[#out + 1] = key
							out[#out + 1] = members[i + 1]
							out[#out + 1] = updated
							out[#out + 1] = item
							if #out >= limit * 4 then
								break
							end
						end
					end
				end
			end
			return out
			""", List.class);

	/** Removes a namespace; returns how many live items it had. ARGV: ttl. */
	static final RedisScript<Long> CLEAR = RedisScript.of(PRELUDE + """
			purge()
			local count = redis.call('HLEN', KEYS[1])
			redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
			return count
			""", Long.class);

	private KeyValueScripts() {
	}

}
