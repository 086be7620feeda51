package dev.agcore.sample.tools;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;

import dev.agcore.Tool;
import dev.agcore.ToolParam;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Converts lengths, masses and temperatures. Models are unreliable at arithmetic; a tool
 * is not.
 */
@Component
public class UnitConverterTools {

	@Tool(name = "convert_units", description = "Convert a value between units of length (km, m, mi, ft), "
			+ "mass (kg, g, lb, oz) or temperature (C, F)", permission = "read-only", secrets = {})
	public String convert(@ToolParam(description = "The value to convert") double value,
			@ToolParam(description = "Unit of the value, e.g. km") String from,
			@ToolParam(description = "Unit to convert to, e.g. mi") String to) {
		Unit source = Unit.find(from);
		Unit target = Unit.find(to);
		if (source == null || target == null) {
			return "Unknown unit '" + ((source == null) ? from : to) + "'. Known units: "
					+ Arrays.stream(Unit.values()).map(Unit::symbol).toList();
		}
		if (source.dimension != target.dimension) {
			return "Cannot convert " + source.symbol + " (" + source.dimension + ") to " + target.symbol + " ("
					+ target.dimension + ")";
		}
		double result = target.fromBase(source.toBase(value));
		return format(value) + " " + source.symbol + " = " + format(result) + " " + target.symbol;
	}

	private static String format(double value) {
		return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

	private enum Dimension {

		LENGTH, MASS, TEMPERATURE;

		@Override
		public String toString() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private enum Unit {

		KILOMETER("km", Dimension.LENGTH, 1000, "kilometer", "kilometers", "kilometre", "kilometres"),
		METER("m", Dimension.LENGTH, 1, "meter", "meters", "metre", "metres"),
		MILE("mi", Dimension.LENGTH, 1609.344, "mile", "miles"),
		FOOT("ft", Dimension.LENGTH, 0.3048, "foot", "feet"),
		KILOGRAM("kg", Dimension.MASS, 1000, "kilogram", "kilograms", "kilo", "kilos"),
		GRAM("g", Dimension.MASS, 1, "gram", "grams"),
		POUND("lb", Dimension.MASS, 453.59237, "lbs", "pound", "pounds"),
		OUNCE("oz", Dimension.MASS, 28.349523125, "ounce", "ounces"),
		CELSIUS("C", Dimension.TEMPERATURE, 1, "°C", "celsius"),
		FAHRENHEIT("F", Dimension.TEMPERATURE, 1, "°F", "fahrenheit");

		private final String symbol;

		private final Dimension dimension;

		// size of the unit in the dimension's base unit (m, g); temperatures are special
		private final double factor;

		private final String[] aliases;

		Unit(String symbol, Dimension dimension, double factor, String... aliases) {
			this.symbol = symbol;
			this.dimension = dimension;
			this.factor = factor;
			this.aliases = aliases;
		}

		String symbol() {
			return this.symbol;
		}

		double toBase(double value) {
			return (this == FAHRENHEIT) ? (value - 32) * 5 / 9 : value * this.factor;
		}

		double fromBase(double value) {
			return (this == FAHRENHEIT) ? value * 9 / 5 + 32 : value / this.factor;
		}

		static @Nullable Unit find(String name) {
			String wanted = name.strip();
			for (Unit unit : values()) {
				if (unit.symbol.equalsIgnoreCase(wanted)
						|| Arrays.stream(unit.aliases).anyMatch((alias) -> alias.equalsIgnoreCase(wanted))) {
					return unit;
				}
			}
			return null;
		}

	}

}
