package dev.agcore.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder between a test and a real server that can be cut and restored, to see
 * how a store behaves while its server is down and after it comes back, without stopping
 * the server other tests use. While cut, it closes every open connection and refuses new
 * ones.
 */
public final class TcpProxy implements AutoCloseable {

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	private TcpProxy(String targetHost, int targetPort) throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "tcp-proxy-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Start forwarding a local port to a server.
	 * @param host the server's host
	 * @param port the server's port
	 * @return the proxy
	 */
	public static TcpProxy to(String host, int port) {
		try {
			return new TcpProxy(host, port);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the local port that leads to the server.
	 * @return the port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/** Close every connection and refuse new ones, as a server that went down. */
	public void cut() {
		this.cut = true;
		this.sockets.forEach(TcpProxy::closeQuietly);
		this.sockets.clear();
	}

	/** Accept connections again, as a server that came back. */
	public void restore() {
		this.cut = false;
	}

	@Override
	public void close() {
		cut();
		closeQuietly(this.server);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket upstream = new Socket(this.targetHost, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pipe(client, upstream);
				pipe(upstream, client);
			}
			catch (IOException ex) {
				// closed, or the server refused: the client sees its connection fail
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16384];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// one side closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "tcp-proxy-pipe");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// already closed
		}
	}

}
