package dev.agcore.budget.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;

class PostgresJdbcBudgetTests extends JdbcBudgetContractTests {

	@Override
	protected HikariDataSource dataSource() {
		ServiceAvailability.require("PostgreSQL", "127.0.0.1", 5432);
		return pool("jdbc:postgresql://127.0.0.1:5432/test?connectTimeout=2&socketTimeout=10", "postgres");
	}

	@Override
	protected String platform() {
		return "postgresql";
	}

}
