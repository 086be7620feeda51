package dev.agcore.budget.jdbc;

import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;

class H2JdbcBudgetTests extends JdbcBudgetContractTests {

	@Override
	protected HikariDataSource dataSource() {
		return pool("jdbc:h2:mem:budget-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa");
	}

	@Override
	protected String platform() {
		return "h2";
	}

}
