package dev.agcore.memory;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

import dev.agcore.message.Message;
import dev.agcore.message.ToolResultMessage;

/**
 * An immutable list of messages that can be extended in amortised constant time: the
 * in-memory store's conversations, so that appending a turn does not copy the history.
 * Lists made by {@link #append} share one array: each sees only its own range, which
 * later appends never write to (they write past its end, or into a new array), so every
 * list stays unchanged however the conversation grows. Extending one list twice copies
 * the second time. Appends must be serialised by the caller; reading needs no lock.
 */
final class MessageLog extends AbstractList<Message> implements RandomAccess {

	static final MessageLog EMPTY = new MessageLog(new Message[0], 0, 0, new int[] { 0 });

	private final Message[] array;

	private final int start;

	private final int end;

	// how far the array is filled, shared by the lists on it: a list may append in place
	// only when the array is filled exactly to its end
	private final int[] filled;

	private MessageLog(Message[] array, int start, int end, int[] filled) {
		this.array = array;
		this.start = start;
		this.end = end;
		this.filled = filled;
	}

	static MessageLog of(List<Message> messages) {
		Message[] array = messages.toArray(new Message[0]);
		return new MessageLog(array, 0, array.length, new int[] { array.length });
	}

	/**
	 * Return this list followed by the messages, keeping at most {@code max} of the newest
	 * and never starting with a tool result whose call was dropped.
	 */
	MessageLog append(List<Message> added, int max) {
		MessageLog extended = extend(added);
		return extended.newest(max);
	}

	private MessageLog extend(List<Message> added) {
		int size = this.end - this.start;
		int needed = size + added.size();
		if (this.filled[0] == this.end && this.end + added.size() <= this.array.length) {
			for (int i = 0; i < added.size(); i++) {
				this.array[this.end + i] = added.get(i);
			}
			this.filled[0] = this.end + added.size();
			return new MessageLog(this.array, this.start, this.end + added.size(), this.filled);
		}
		Message[] grown = Arrays.copyOfRange(this.array, this.start, this.start + Math.max(needed * 2, 16));
		for (int i = 0; i < added.size(); i++) {
			grown[size + i] = added.get(i);
		}
		return new MessageLog(grown, 0, needed, new int[] { needed });
	}

	private MessageLog newest(int max) {
		if (size() <= max) {
			return this;
		}
		int from = this.end - max;
		while (from < this.end && this.array[from] instanceof ToolResultMessage) {
			from++;
		}
		// the dropped messages stay in the array until it grows: at most one copy's worth
		return new MessageLog(this.array, from, this.end, this.filled);
	}

	@Override
	public Message get(int index) {
		if (index < 0 || index >= size()) {
			throw new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + size());
		}
		return this.array[this.start + index];
	}

	@Override
	public int size() {
		return this.end - this.start;
	}

}
