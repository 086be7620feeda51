package dev.agcore.memory.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;
import dev.agcore.memory.TcpProxy;

/**
 * A database server of the machine that a JDBC contract test class runs on: the stores'
 * tables under a prefix of the class's own, created once and dropped afterwards, and
 * connections through a {@link TcpProxy} for outages, closed after each test.
 */
final class ServerDatabase {

	/** The servers the tests run on. */
	enum Server {

		POSTGRESQL("PostgreSQL", TestDatabases.POSTGRES_PORT, "postgresql", TestDatabases::postgres),

		MARIADB("MariaDB", TestDatabases.MARIADB_PORT, "mariadb", TestDatabases::mariadb);

		private final String displayName;

		private final int port;

		private final String platform;

		private final IntFunction<HikariDataSource> dataSource;

		Server(String displayName, int port, String platform, IntFunction<HikariDataSource> dataSource) {
			this.displayName = displayName;
			this.port = port;
			this.platform = platform;
			this.dataSource = dataSource;
		}

	}

	private final Server server;

	private final String prefix;

	private final HikariDataSource dataSource;

	private final List<AutoCloseable> proxied = new ArrayList<>();

	private ServerDatabase(Server server, String prefix) {
		this.server = server;
		this.prefix = prefix;
		this.dataSource = server.dataSource.apply(server.port);
	}

	/**
	 * Require the server and create the tables, under a prefix no other class uses.
	 * @param server the server
	 * @param name what the prefix starts with
	 * @return the database
	 */
	static ServerDatabase create(Server server, String name) {
		ServiceAvailability.require(server.displayName, TestDatabases.POSTGRES_HOST, server.port);
		ServerDatabase database = new ServerDatabase(server, TestDatabases.prefix(name));
		JdbcMemorySchema.create(database.dataSource, server.platform, database.prefix);
		return database;
	}

	String prefix() {
		return this.prefix;
	}

	HikariDataSource dataSource() {
		return this.dataSource;
	}

	/** A proxy to the server, closed by {@link #closeProxies()}. */
	TcpProxy proxy() {
		TcpProxy proxy = TcpProxy.to(TestDatabases.POSTGRES_HOST, this.server.port);
		this.proxied.add(proxy);
		return proxy;
	}

	/** A data source reaching the server through a proxy, closed by {@link #closeProxies()}. */
	HikariDataSource dataSource(TcpProxy proxy) {
		HikariDataSource dataSource = this.server.dataSource.apply(proxy.port());
		// closed before the proxies, so the pool does not wait on connections being cut
		this.proxied.add(0, dataSource);
		return dataSource;
	}

	void closeProxies() throws Exception {
		for (AutoCloseable closeable : this.proxied) {
			closeable.close();
		}
		this.proxied.clear();
	}

	/** Drop the tables and close the connections. */
	void drop() {
		JdbcMemorySchema.drop(this.dataSource, this.prefix);
		this.dataSource.close();
	}

}
