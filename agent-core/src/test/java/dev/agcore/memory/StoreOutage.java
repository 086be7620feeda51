package dev.agcore.memory;

/**
 * A store whose backend is reached through a {@link TcpProxy}, so that a contract test can
 * take the backend down and bring it back.
 *
 * @param <S> the type of store
 * @param store the store, talking to its backend through the proxy
 * @param proxy the proxy
 */
public record StoreOutage<S>(S store, TcpProxy proxy) {

	/** Close every connection and refuse new ones, as a backend that went down. */
	public void cut() {
		this.proxy.cut();
	}

	/** Accept connections again, as a backend that came back. */
	public void restore() {
		this.proxy.restore();
	}

}
