package dev.agcore.testing.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.agcore.model.ChatChunk;
import dev.agcore.model.ChatModel;
import dev.agcore.model.ChatRequest;
import dev.agcore.model.ChatResponse;
import dev.agcore.model.ChatResponseAccumulator;
import dev.agcore.model.ModelCapability;
import dev.agcore.testing.ScriptedChatModel;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link ChatModel} that records the calls of a real model to a cassette file, or
 * replays them from it. Recording wraps the model, not its HTTP client: the cassette
 * holds requests and responses as agcore sees them, the same for every provider, and no
 * credential ever reaches this level (API keys and auth headers live in the provider's
 * HTTP client); other secrets, such as a token in a prompt, are replaced by
 * {@value #REDACTED} with {@link Builder#redact}. In replay, requests must come in the
 * recorded order and be equal to the recorded ones, or the call fails with a
 * {@link ReplayMismatchError} holding a diff. Streamed responses are replayed split as
 * {@link ScriptedChatModel#chunks} splits them (chunk boundaries are not recorded).
 * <pre>{@code
 * ChatModel model = CassetteChatModel.builder("weather-turn").build(() -> realModel);
 * }</pre>
 */
public final class CassetteChatModel implements ChatModel {

	/** What a redacted secret is replaced with. */
	public static final String REDACTED = "<redacted>";

	/** Where cassettes are written by default, relative to the module's directory. */
	public static final Path DEFAULT_DIRECTORY = Path.of("src", "test", "resources", "cassettes");

	private final Path file;

	private final ReplayMode mode;

	private final Set<String> secrets;

	private final @Nullable ChatModel delegate;

	private final ObjectNode cassette;

	private int played;

	private CassetteChatModel(Path file, ReplayMode mode, Set<String> secrets, @Nullable ChatModel delegate,
			ObjectNode cassette) {
		this.file = file;
		this.mode = mode;
		this.secrets = secrets;
		this.delegate = delegate;
		this.cassette = cassette;
	}

	/**
	 * Start a cassette.
	 * @param name the cassette's name, one per test, e.g. {@code weather-turn}; the file
	 * is {@code <name>.json}
	 * @return a builder
	 */
	public static Builder builder(String name) {
		return new Builder(name);
	}

	/**
	 * Return whether this model records or replays.
	 * @return {@link ReplayMode#RECORD} or {@link ReplayMode#REPLAY}
	 */
	public ReplayMode mode() {
		return this.mode;
	}

	/**
	 * Return the cassette file.
	 * @return the path
	 */
	public Path file() {
		return this.file;
	}

	/**
	 * Verify that every recorded interaction was replayed (when replaying).
	 * @throws ReplayMismatchError naming the first request that was not made
	 */
	public synchronized void assertAllPlayed() {
		ArrayNode interactions = interactions();
		if (this.mode == ReplayMode.REPLAY && this.played < interactions.size()) {
			throw new ReplayMismatchError(interactions.size() + " requests were recorded in " + this.file + " but only "
					+ this.played + " were made; the first missing one was:\n"
					+ CassetteJson.write(interactions.get(this.played).required("request")));
		}
	}

	@Override
	public Mono<ChatResponse> call(ChatRequest request) {
		if (this.mode == ReplayMode.REPLAY) {
			return Mono.fromSupplier(() -> replay(request));
		}
		return Mono.defer(() -> delegate().call(request)).doOnNext((response) -> record(request, response));
	}

	@Override
	public Flux<ChatChunk> stream(ChatRequest request) {
		if (this.mode == ReplayMode.REPLAY) {
			return Mono.fromSupplier(() -> replay(request)).flatMapIterable(ScriptedChatModel::chunks);
		}
		return Flux.defer(() -> {
			ChatResponseAccumulator accumulator = new ChatResponseAccumulator(providerName());
			return delegate().stream(request)
				.doOnNext(accumulator::add)
				.doOnComplete(() -> record(request, accumulator.toResponse()));
		});
	}

	@Override
	public String providerName() {
		return this.cassette.path("provider").asString("custom");
	}

	@Override
	public String modelName() {
		return this.cassette.path("model").asString("unknown");
	}

	@Override
	public Set<ModelCapability> capabilities() {
		Set<ModelCapability> capabilities = EnumSet.noneOf(ModelCapability.class);
		this.cassette.path("capabilities").forEach((name) -> capabilities.add(ModelCapability.valueOf(name.asString())));
		return capabilities;
	}

	private ChatModel delegate() {
		return Objects.requireNonNull(this.delegate, "a replaying cassette has no model");
	}

	private synchronized ChatResponse replay(ChatRequest request) {
		ArrayNode interactions = interactions();
		int number = this.played + 1;
		String actual = CassetteJson.write(CassetteJson.redact(CassetteJson.request(request), this.secrets));
		if (this.played >= interactions.size()) {
			throw new ReplayMismatchError("Request #" + number + " was not recorded in " + this.file + " (it holds "
					+ interactions.size() + "); " + rerecord() + "\nThe request:\n" + actual);
		}
		JsonNode interaction = interactions.get(this.played);
		String recorded = CassetteJson.write(interaction.required("request"));
		if (!recorded.equals(actual)) {
			throw new ReplayMismatchError("Request #" + number + " differs from the one recorded in " + this.file
					+ "; " + rerecord() + "\n--- recorded\n+++ actual\n" + LineDiff.of(recorded, actual));
		}
		this.played++;
		return CassetteJson.readResponse(interaction.required("response"));
	}

	private static String rerecord() {
		return "if the change is intended, record again with -D" + ReplayMode.PROPERTY + "=record";
	}

	private synchronized void record(ChatRequest request, ChatResponse response) {
		ObjectNode interaction = interactions().addObject();
		interaction.set("request", CassetteJson.redact(CassetteJson.request(request), this.secrets));
		interaction.set("response", CassetteJson.redact(CassetteJson.response(response), this.secrets));
		write(this.file, this.cassette);
	}

	private ArrayNode interactions() {
		return (ArrayNode) this.cassette.required("interactions");
	}

	private static void write(Path file, ObjectNode cassette) {
		try {
			Files.createDirectories(file.toAbsolutePath().getParent());
			Files.writeString(file, CassetteJson.write(cassette) + "\n", StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the cassette " + file, ex);
		}
	}

	/**
	 * Builds a {@link CassetteChatModel}.
	 */
	public static final class Builder {

		private final String name;

		private Path directory = DEFAULT_DIRECTORY;

		private @Nullable ReplayMode mode;

		// the process environment, replaced in tests that play CI and a laptop
		private UnaryOperator<@Nullable String> environment = System::getenv;

		private final Set<String> secrets = new LinkedHashSet<>();

		private Builder(String name) {
			if (name.isBlank() || !name.matches("[A-Za-z0-9._-]+")) {
				throw new IllegalArgumentException(
						"A cassette name must be letters, digits, '.', '_' or '-' (was '" + name + "')");
			}
			this.name = name;
		}

		/**
		 * Set the directory of the cassette file.
		 * @param directory the directory; {@link #DEFAULT_DIRECTORY} by default
		 * @return this
		 */
		public Builder directory(Path directory) {
			this.directory = directory;
			return this;
		}

		/**
		 * Set the mode, instead of reading it from {@value ReplayMode#PROPERTY}.
		 * @param mode the mode
		 * @return this
		 */
		public Builder mode(ReplayMode mode) {
			this.mode = mode;
			return this;
		}

		/**
		 * Replace these texts by {@value CassetteChatModel#REDACTED} wherever they occur in a request or
		 * response, in the file and before comparing a replayed request.
		 * @param secrets the texts; null or empty ones are ignored (an unset variable)
		 * @return this
		 */
		public Builder redact(@Nullable String... secrets) {
			for (String secret : secrets) {
				if (secret != null && !secret.isEmpty()) {
					this.secrets.add(secret);
				}
			}
			return this;
		}

		Builder environment(UnaryOperator<@Nullable String> environment) {
			this.environment = environment;
			return this;
		}

		/**
		 * Build the model. Recording creates the real model and replaces the
		 * cassette with the calls made; replaying reads it and never creates the real model.
		 * @param realModel creates the real model, only when recording
		 * @return the model
		 */
		public CassetteChatModel build(Supplier<? extends ChatModel> realModel) {
			Path file = this.directory.resolve(this.name + ".json");
			ReplayMode mode = resolve(file);
			if (mode == ReplayMode.REPLAY) {
				return new CassetteChatModel(file, mode, Set.copyOf(this.secrets), null, read(file));
			}
			ChatModel model = Objects.requireNonNull(realModel.get(), "the real model must not be null");
			ObjectNode cassette = CassetteJson.MAPPER.createObjectNode();
			cassette.put("provider", model.providerName());
			cassette.put("model", model.modelName());
			ArrayNode capabilities = cassette.putArray("capabilities");
			new ArrayList<>(model.capabilities()).forEach((capability) -> capabilities.add(capability.name()));
			// written with the first interaction: a recording that made no call leaves no file behind
			cassette.putArray("interactions");
			return new CassetteChatModel(file, mode, Set.copyOf(this.secrets), model, cassette);
		}

		private ReplayMode resolve(Path file) {
			ReplayMode mode = (this.mode != null) ? this.mode : ReplayMode.configured();
			if (mode != ReplayMode.AUTO) {
				return mode;
			}
			if (Files.exists(file)) {
				return ReplayMode.REPLAY;
			}
			if ("true".equalsIgnoreCase(this.environment.apply("CI"))) {
				throw new IllegalStateException("No cassette " + file + " and CI=true, where no real provider is "
						+ "called: record it locally with -D" + ReplayMode.PROPERTY + "=record and commit it");
			}
			return ReplayMode.RECORD;
		}

		private static ObjectNode read(Path file) {
			if (!Files.exists(file)) {
				throw new IllegalStateException("No cassette " + file + " to replay: record it with -D"
						+ ReplayMode.PROPERTY + "=record");
			}
			try {
				return (ObjectNode) CassetteJson.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not read the cassette " + file, ex);
			}
		}

	}

}
