package dev.agcore.memory.redis;

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of {@link RedisConversationStore}. Each change to a session is one
 * script, so the version check and the change are atomic, and touches only the keys of
 * that session (one hash tag, so one cluster slot). List elements carry the kind of their
 * message in their first character ({@code T} for a tool result, {@code M} otherwise), so
 * trimming can drop an orphaned tool result without parsing JSON.
 */
final class ConversationScripts {

	/** A message element whose call may be trimmed away. */
	static final String TOOL_RESULT = "T";

	/** Any other message element. */
	static final String OTHER = "M";

	/**
	 * Changes a conversation if it is still at the expected version; returns the new
	 * version, or -1 on a conflict. KEYS: messages, meta. ARGV: expected version, mode
	 * (append, replace, pending, complete), max messages, ttl in ms (0: none), pending
	 * turn JSON, then the message elements.
	 */
	static final RedisScript<Long> WRITE = RedisScript.of("""
			local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
			if version ~= tonumber(ARGV[1]) then
				return -1
			end
			local mode = ARGV[2]
			if mode == 'replace' then
				redis.call('DEL', KEYS[1])
			end
			local length = 0
			local i = 6
			while i <= #ARGV do
				local last = math.min(i + 999, #ARGV)
				length = redis.call('RPUSH', KEYS[1], unpack(ARGV, i, last))
				i = last + 1
			end
			local max = tonumber(ARGV[3])
			if length > max then
				redis.call('LTRIM', KEYS[1], -max, -1)
				while true do
					local head = redis.call('LINDEX', KEYS[1], 0)
					if not head or string.sub(head, 1, 1) ~= 'T' then
						break
					end
					redis.call('LPOP', KEYS[1])
				end
			end
			if mode == 'pending' then
				redis.call('HSET', KEYS[2], 'pending', ARGV[5])
				redis.call('HDEL', KEYS[2], 'claimed')
			elseif mode == 'complete' then
				redis.call('HDEL', KEYS[2], 'pending', 'claimed')
			end
			local next = redis.call('HINCRBY', KEYS[2], 'version', 1)
			local ttl = tonumber(ARGV[4])
			if ttl > 0 then
				redis.call('PEXPIRE', KEYS[1], ttl)
				redis.call('PEXPIRE', KEYS[2], ttl)
			end
			return next
			""", Long.class);

	/**
	 * Reads the version and the number of messages, then the messages from an index on.
	 * KEYS: messages, meta. ARGV: the first index (0 for all, -n for the newest n).
	 */
	@SuppressWarnings("rawtypes")
	static final RedisScript<List> READ = RedisScript.of("""
			local messages = redis.call('LRANGE', KEYS[1], tonumber(ARGV[1]), -1)
			table.insert(messages, 1, tostring(redis.call('LLEN', KEYS[1])))
			table.insert(messages, 1, redis.call('HGET', KEYS[2], 'version') or '0')
			return messages
			""", List.class);

	/**
	 * Claims the pending turn if it is the expected one and not claimed, or its claim is
	 * older than the timeout; returns 1 if claimed. KEYS: meta. ARGV: expected turn JSON,
	 * claim timeout in ms (0: claims do not expire). Uses the server's clock, so all
	 * instances agree.
	 */
	static final RedisScript<Long> CLAIM = RedisScript.of("""
			if redis.call('HGET', KEYS[1], 'pending') ~= ARGV[1] then
				return 0
			end
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			local claimed = redis.call('HGET', KEYS[1], 'claimed')
			local timeout = tonumber(ARGV[2])
			if claimed and (timeout <= 0 or tonumber(claimed) + timeout > now) then
				return 0
			end
			redis.call('HSET', KEYS[1], 'claimed', string.format('%.0f', now))
			return 1
			""", Long.class);

	/**
	 * Replaces the claimed pending turn by its progressed form, keeping and renewing the
	 * claim; returns 1 if replaced. KEYS: meta. ARGV: claimed turn JSON, progressed turn
	 * JSON.
	 */
	static final RedisScript<Long> PROGRESS = RedisScript.of("""
			if redis.call('HGET', KEYS[1], 'pending') ~= ARGV[1] or not redis.call('HGET', KEYS[1], 'claimed') then
				return 0
			end
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			redis.call('HSET', KEYS[1], 'pending', ARGV[2], 'claimed', string.format('%.0f', now))
			return 1
			""", Long.class);

	/** Gives back the claim of the pending turn if it is still the one named. KEYS: meta. ARGV: turn JSON. */
	static final RedisScript<Long> RELEASE = RedisScript.of("""
			if redis.call('HGET', KEYS[1], 'pending') == ARGV[1] then
				return redis.call('HDEL', KEYS[1], 'claimed')
			end
			return 0
			""", Long.class);

	/**
	 * Marks a session used in the index of sessions, drops index entries older than the
	 * session time-to-live, and returns the least recently used sessions beyond the
	 * capacity plus some more, as candidates for eviction. KEYS: index. ARGV: session, max
	 * sessions, ttl in ms (0: none), extra candidates.
	 */
	@SuppressWarnings("rawtypes")
	static final RedisScript<List> TOUCH = RedisScript.of("""
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[1])
			local ttl = tonumber(ARGV[3])
			if ttl > 0 then
				redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - ttl))
			end
			local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
			if excess <= 0 then
				return {}
			end
			local candidates = redis.call('ZRANGE', KEYS[1], 0, excess - 1 + tonumber(ARGV[4]))
			table.insert(candidates, 1, tostring(excess))
			return candidates
			""", List.class);

	/**
	 * Deletes a session unless it waits for approval; returns 1 if deleted. KEYS:
	 * messages, meta.
	 */
	static final RedisScript<Long> EVICT = RedisScript.of("""
			if redis.call('HEXISTS', KEYS[2], 'pending') == 1 then
				return 0
			end
			redis.call('DEL', KEYS[1], KEYS[2])
			return 1
			""", Long.class);

	private ConversationScripts() {
	}

}
