package dev.agcore.budget.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.agcore.memory.ServiceAvailability;

class MariaDbJdbcBudgetTests extends JdbcBudgetContractTests {

	@Override
	protected HikariDataSource dataSource() {
		ServiceAvailability.require("MariaDB", "127.0.0.1", 3306);
		return pool("jdbc:mariadb://127.0.0.1:3306/test?connectTimeout=2000&socketTimeout=10000", "root");
	}

	@Override
	protected String platform() {
		return "mariadb";
	}

}
