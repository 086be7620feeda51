package dev.agcore.autoconfigure.web.security;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.agcore.audit.AuditEvent;
import dev.agcore.autoconfigure.web.security.MatrixHttp.Reply;
import dev.agcore.json.AgentJson;
import dev.agcore.memory.ConversationStore;
import dev.agcore.message.Message;
import dev.agcore.model.ChatRequest;
import dev.agcore.testing.ScriptedChatModel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Issue 27's ownership matrix: alice owns a conversation, a turn waiting for her approval,
 * a background run and an A2A task; bob, and an anonymous caller, try every entry point
 * into an agent against them over a real socket, as an attacker would. Every route is
 * open in the filter chain ({@link OwnershipMatrixApplication}), so only the runtime's
 * own check stands between them and alice's data.
 * <p>
 * Each row is one entry point and one operation, tried by bob and by an anonymous
 * caller. Every cell asserts the refusal the entry point owes (404 on the starter's
 * routes, an error elsewhere), that alice's content is nowhere in the answer, and that
 * alice's data is as it was: her conversations and paused turn hold the same messages,
 * her run and her A2A task are in the same state, and the model never received the
 * attacker's message.
 */
@SpringBootTest(classes = OwnershipMatrixApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "spring.main.banner-mode=off",
				"agent.web.enabled=true", "agent.web.ag-ui.enabled=true", "agent.web.openai.enabled=true",
				"agent.web.a2a.enabled=true", "agent.mcp.server.enabled=true", "agent.mcp.server.agents=assistant",
				"agent.agents.assistant.model=scripted", "agent.agents.assistant.tools=delete_file",
				"agent.agents.assistant.middleware.human-in-the-loop.tools.delete_file=Deleting cannot be undone",
				"agent.untrusted-content.enabled=false" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OwnershipMatrixTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final AtomicInteger cellNumber = new AtomicInteger();

	@LocalServerPort
	private int port;

	@Autowired
	private ScriptedChatModel model;

	@Autowired
	private ConversationStore store;

	@Autowired
	private OwnershipMatrixApplication.AuditTrail audit;

	/** What alice owns, made once through the routes as alice. */
	private Alices alices;

	@BeforeAll
	void aliceMakesHerData() {
		MatrixHttp alice = MatrixHttp.as(this.port, "alice");
		String secret = "alice-secret-" + UUID.randomUUID();
		String chat = "a-chat-" + UUID.randomUUID();
		ok(alice.post("/agents/assistant/invoke", Map.of("sessionId", chat, "message", secret + " is my plan")));

		String paused = "a-paused-" + UUID.randomUUID();
		JsonNode pausedTurn = json(
				ok(alice.post("/agents/assistant/invoke", Map.of("sessionId", paused, "message", "call delete_file " + secret))));
		String callId = pausedTurn.path("pendingToolCalls").path(0).path("id").asString();
		assertThat(callId).as("alice's turn waits for her approval: %s", pausedTurn).isNotBlank();

		String runSession = "a-run-" + UUID.randomUUID();
		String runId = json(ok(alice.post("/agents/assistant/runs",
				Map.of("sessionId", runSession, "message", secret + " in a run")))).path("id").asString();
		awaitRunFinished(alice, runId);

		JsonNode task = json(ok(alice.post("/a2a/assistant", a2a("message/send",
				a2aMessage("call delete_file " + secret, null, null))))).path("result");
		assertThat(task.path("id").asString()).as("alice's A2A task: %s", task).isNotBlank();

		this.alices = new Alices(secret, chat, paused, callId, runSession, runId, task.path("id").asString(),
				task.path("contextId").asString());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cells")
	void anotherCallerCannotReachAlicesData(Cell cell, @Nullable String attacker) {
		Snapshot before = snapshot();
		String marker = "intruder-" + cellNumber.incrementAndGet() + "-" + UUID.randomUUID();
		Attack attack = new Attack(MatrixHttp.as(this.port, attacker), this.alices, marker, this.port);

		Reply reply = cell.attack().apply(attack);

		String name = cell.name() + " by " + ((attacker != null) ? attacker : "an anonymous caller");
		cell.expected().check(name, reply, this.alices);
		assertThat(reply.body()).as("%s: the answer shows nothing of alice's", name).doesNotContain(this.alices.secret());
		assertThat(sentToTheModel(marker)).as("%s: the model never received the intruder's message", name).isEmpty();
		assertThat(snapshot()).as("%s: alice's data is unchanged", name).isEqualTo(before);
	}

	@Test
	void aRefusalIsAuditedWithTheCallerAndTheSession() {
		MatrixHttp bob = MatrixHttp.as(this.port, "bob");

		Reply refused = bob.get("/agents/assistant/sessions/" + this.alices.chat() + "/messages");

		assertThat(refused.status()).isEqualTo(404);
		assertThat(this.audit.events).anySatisfy((event) -> {
			assertThat(event.kind()).isEqualTo(AuditEvent.Kind.ACCESS_DENIED);
			assertThat(event.sessionId()).isEqualTo(this.alices.chat());
			assertThat(event.userId()).isEqualTo("bob");
			assertThat(event.outcome()).isEqualTo("denied");
		});
	}

	/**
	 * The control row: each entry point that refuses bob alice's session serves bob his
	 * own, twice in one conversation, so a refusal above is about the owner, not the
	 * entry point refusing everyone.
	 */
	@ParameterizedTest(name = "{0}: bob continues his own conversation")
	@MethodSource("ownUse")
	void eachEntryPointServesACallerHisOwnSession(String entryPoint, Function<Attack, Reply> turn) {
		String session = "b-own-" + UUID.randomUUID();
		Alices bobs = new Alices("", session, session, "", session, "", "", session);
		MatrixHttp bob = MatrixHttp.as(this.port, "bob");

		Reply first = turn.apply(new Attack(bob, bobs, "bob-first-" + UUID.randomUUID(), this.port));
		Reply second = turn.apply(new Attack(bob, bobs, "bob-second-" + UUID.randomUUID(), this.port));

		assertThat(first.status()).as("%s: bob's first turn answered %s", entryPoint, first).isBetween(200, 299);
		assertThat(second.status()).as("%s: bob's second turn answered %s", entryPoint, second).isBetween(200, 299);
		assertThat(this.store.load(session).block(TIMEOUT).messages()).as("%s: bob's conversation", entryPoint)
			.extracting(Message::text)
			.anyMatch((text) -> text.startsWith("bob-first-"))
			.anyMatch((text) -> text.startsWith("bob-second-"));
	}

	static Stream<Arguments> ownUse() {
		return Stream.of(
				Arguments.of("agent routes", (Function<Attack, Reply>) (a) -> a.http()
					.post("/agents/assistant/invoke", Map.of("sessionId", a.alices().chat(), "message", a.marker()))),
				Arguments.of("AG-UI", (Function<Attack, Reply>) (a) -> a.http()
					.post("/agents/assistant/ag-ui", agUi(a.alices().chat(), a.marker()))),
				Arguments.of("OpenAI", (Function<Attack, Reply>) (a) -> a.http()
					.post("/v1/chat/completions", openAi(a.marker()), "X-Session-Id", a.alices().chat())),
				Arguments.of("A2A", (Function<Attack, Reply>) (a) -> rpcAsStatus(a.http()
					.post("/a2a/assistant", a2a("message/send", a2aMessage(a.marker(), a.alices().contextId(), null))))),
				Arguments.of("MCP server", (Function<Attack, Reply>) OwnershipMatrixTests::mcpCall),
				Arguments.of("own WebFlux controller", (Function<Attack, Reply>) (a) -> a.http()
					.postText("/chat?session=" + a.alices().chat(), a.marker())));
	}

	// a JSON-RPC error travels in a 200: seen as a 422 here
	private static Reply rpcAsStatus(Reply reply) {
		return json(reply.body()).has("error") ? new Reply(422, reply.body()) : reply;
	}

	Stream<Arguments> cells() {
		List<Cell> cells = List.of(
				// the starter's agent routes
				cell("agent routes", "invoke", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/invoke", Map.of("sessionId", a.alices().chat(), "message", a.marker()))),
				cell("agent routes", "stream", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/stream", Map.of("sessionId", a.alices().chat(), "message", a.marker()))),
				cell("agent routes", "messages", Expect.NOT_FOUND,
						(a) -> a.http().get("/agents/assistant/sessions/" + a.alices().chat() + "/messages")),
				cell("agent routes", "pending", Expect.NOT_FOUND,
						(a) -> a.http().get("/agents/assistant/sessions/" + a.alices().paused() + "/pending")),
				cell("agent routes", "resume (approve alice's call)", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/sessions/" + a.alices().paused() + "/resume", approve(a))),
				cell("agent routes", "resume/stream (approve alice's call)", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/sessions/" + a.alices().paused() + "/resume/stream", approve(a))),
				cell("agent routes", "sessions list (?userId=alice)", Expect.NOT_LISTED,
						(a) -> a.http().get("/agents/-/sessions?userId=alice&limit=1000")),
				cell("agent routes", "sessions delete", Expect.REFUSED_4XX,
						(a) -> a.http().delete("/agents/-/sessions/" + a.alices().chat() + "?userId=alice")),
				cell("agent routes", "runs submit into alice's session", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/runs", Map.of("sessionId", a.alices().chat(), "message", a.marker()))),
				cell("agent routes", "runs list of alice's session", Expect.NOT_FOUND,
						(a) -> a.http().get("/agents/assistant/runs?sessionId=" + a.alices().runSession())),
				cell("agent routes", "runs get", Expect.NOT_FOUND,
						(a) -> a.http().get("/agents/assistant/runs/" + a.alices().runId())),
				cell("agent routes", "runs events", Expect.NOT_FOUND,
						(a) -> a.http().get("/agents/assistant/runs/" + a.alices().runId() + "/events")),
				cell("agent routes", "runs cancel", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/runs/" + a.alices().runId() + "/cancel", Map.of())),
				// AG-UI
				cell("AG-UI", "run in alice's thread", Expect.NOT_FOUND,
						(a) -> a.http().post("/agents/assistant/ag-ui", agUi(a.alices().chat(), a.marker()))),
				// the OpenAI-compatible endpoint
				cell("OpenAI", "chat completion with X-Session-Id", Expect.NOT_FOUND,
						(a) -> a.http().post("/v1/chat/completions", openAi(a.marker(), false), "X-Session-Id", a.alices().chat())),
				cell("OpenAI", "streamed chat completion with X-Session-Id", Expect.NOT_FOUND,
						(a) -> a.http().post("/v1/chat/completions", openAi(a.marker(), true), "X-Session-Id", a.alices().chat())),
				// A2A JSON-RPC
				cell("A2A", "message/send into alice's context", Expect.RPC_ERROR,
						(a) -> a.http().post("/a2a/assistant", a2a("message/send", a2aMessage(a.marker(), a.alices().contextId(), null)))),
				cell("A2A", "message/stream into alice's context", Expect.RPC_ERROR,
						(a) -> a.http().post("/a2a/assistant", a2a("message/stream", a2aMessage(a.marker(), a.alices().contextId(), null)))),
				cell("A2A", "message/send approving alice's task", Expect.RPC_ERROR,
						(a) -> a.http().post("/a2a/assistant", a2a("message/send", a2aMessage("approve " + a.marker(), null, a.alices().taskId())))),
				cell("A2A", "tasks/get", Expect.RPC_ERROR,
						(a) -> a.http().post("/a2a/assistant", a2a("tasks/get", Map.of("id", a.alices().taskId())))),
				cell("A2A", "tasks/cancel", Expect.RPC_ERROR,
						(a) -> a.http().post("/a2a/assistant", a2a("tasks/cancel", Map.of("id", a.alices().taskId())))),
				// the MCP server, through the MCP SDK's client
				cell("MCP server", "tools/call of the agent with alice's sessionId", Expect.REFUSED,
						OwnershipMatrixTests::mcpCall),
				// the application's own controllers, as the README writes them
				cell("own WebFlux controller", "Agent.invoke (README /chat)", Expect.NOT_FOUND,
						(a) -> a.http().postText("/chat?session=" + a.alices().chat(), a.marker())),
				cell("own WebFlux controller", "Agent.stream", Expect.FAILED_EVENT,
						(a) -> a.http().postText("/chat/stream?session=" + a.alices().chat(), a.marker())),
				cell("own WebFlux controller", "Agent.history", Expect.NOT_FOUND,
						(a) -> a.http().get("/chat/history?session=" + a.alices().chat())));
		List<Arguments> arguments = new ArrayList<>();
		for (Cell cell : cells) {
			for (String attacker : new String[] { "bob", null }) {
				arguments.add(Arguments.of(Named.of(cell.name() + " by " + ((attacker != null) ? attacker : "anonymous"), cell),
						attacker));
			}
		}
		return arguments.stream();
	}

	// MCP's answer as a reply: an error result is a refusal (422), a JSON-RPC error too
	private static Reply mcpCall(Attack attack) {
		HttpRequest.Builder requests = HttpRequest.newBuilder();
		if (attack.http().user() != null) {
			requests.header("Authorization", MatrixHttp.basic(attack.http().user()));
		}
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://127.0.0.1:" + attack.port())
			.endpoint("/mcp")
			.requestBuilder(requests)
			.build();
		try (McpSyncClient client = McpClient.sync(transport).requestTimeout(TIMEOUT).build()) {
			client.initialize();
			McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("assistant",
					Map.of("message", attack.marker(), "sessionId", attack.alices().chat())));
			String text = result.content()
				.stream()
				.map((content) -> (content instanceof McpSchema.TextContent textContent) ? textContent.text()
						: content.toString())
				.reduce("", String::concat) + " " + result.structuredContent();
			return new Reply(Boolean.TRUE.equals(result.isError()) ? 422 : 200, text);
		}
		catch (RuntimeException ex) {
			return new Reply(500, String.valueOf(ex.getMessage()));
		}
	}

	private Snapshot snapshot() {
		Alices a = this.alices;
		MatrixHttp alice = MatrixHttp.as(this.port, "alice");
		List<String> conversations = new ArrayList<>();
		for (String session : List.of(a.chat(), a.paused(), a.runSession(), a.contextId())) {
			conversations.add(session + ": " + this.store.load(session).block(TIMEOUT).messages()
					+ " pending " + this.store.loadPending(session).blockOptional(TIMEOUT).orElse(null));
		}
		String run = json(ok(alice.get("/agents/assistant/runs/" + a.runId()))).path("status").asString();
		String task = json(ok(alice.post("/a2a/assistant", a2a("tasks/get", Map.of("id", a.taskId())))))
			.path("result").path("status").path("state").asString();
		return new Snapshot(conversations, run, task);
	}

	private List<ChatRequest> sentToTheModel(String marker) {
		return this.model.requests()
			.stream()
			.filter((request) -> request.messages().stream().map(Message::text).anyMatch((text) -> text != null && text.contains(marker)))
			.toList();
	}

	private static void awaitRunFinished(MatrixHttp alice, String runId) {
		long end = System.nanoTime() + TIMEOUT.toNanos();
		while (System.nanoTime() < end) {
			String status = json(ok(alice.get("/agents/assistant/runs/" + runId))).path("status").asString();
			if (!status.equals("queued") && !status.equals("running")) {
				return;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		fail("alice's run %s did not finish within %s", runId, TIMEOUT);
	}

	private static Map<String, Object> approve(Attack attack) {
		return Map.of("decisions", Map.of(attack.alices().callId(), Map.of("type", "approve")),
				"userId", "alice");
	}

	private static Map<String, Object> agUi(String threadId, String text) {
		return Map.of("threadId", threadId, "runId", "run-" + UUID.randomUUID(), "state", Map.of(), "messages",
				List.of(Map.of("id", "u-" + UUID.randomUUID(), "role", "user", "content", text)), "tools", List.of(),
				"context", List.of(), "forwardedProps", Map.of());
	}

	// an attacker also claims to be alice in the request's "user"
	private static Map<String, Object> openAi(String text, boolean stream) {
		return Map.of("model", "assistant", "stream", stream, "user", "alice", "messages",
				List.of(Map.of("role", "user", "content", text)));
	}

	private static Map<String, Object> openAi(String text) {
		return Map.of("model", "assistant", "messages", List.of(Map.of("role", "user", "content", text)));
	}

	static Map<String, Object> a2a(String method, Map<String, Object> params) {
		return Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params);
	}

	static Map<String, Object> a2aMessage(String text, @Nullable String contextId, @Nullable String taskId) {
		Map<String, Object> message = new java.util.LinkedHashMap<>();
		message.put("kind", "message");
		message.put("role", "user");
		message.put("messageId", "m-" + UUID.randomUUID());
		if (contextId != null) {
			message.put("contextId", contextId);
		}
		if (taskId != null) {
			message.put("taskId", taskId);
		}
		message.put("parts", List.of(Map.of("kind", "text", "text", text)));
		return Map.of("message", message);
	}

	private static String ok(Reply reply) {
		assertThat(reply.status()).as("alice's own request: %s", reply).isBetween(200, 299);
		return reply.body();
	}

	static JsonNode json(String body) {
		return AgentJson.mapper().readTree(body);
	}

	private static Cell cell(String entryPoint, String operation, Expect expected, Function<Attack, Reply> attack) {
		return new Cell(entryPoint + ": " + operation, expected, attack);
	}

	/**
	 * One row of the matrix.
	 * @param name the entry point and the operation
	 * @param expected the refusal the entry point owes
	 * @param attack the request, sent as the attacker
	 */
	record Cell(String name, Expect expected, Function<Attack, Reply> attack) {

		@Override
		public String toString() {
			return this.name;
		}

	}

	/**
	 * What an attacker has to hand.
	 * @param http the attacker's HTTP client
	 * @param alices the ids of alice's data, which an attacker may have guessed or seen
	 * @param marker the attacker's message, unique to the cell
	 * @param port the application's port
	 */
	record Attack(MatrixHttp http, Alices alices, String marker, int port) {
	}

	/**
	 * What alice owns.
	 * @param secret text only alice's conversations hold
	 * @param chat a conversation
	 * @param paused a conversation whose turn waits for alice's approval
	 * @param callId the tool call that waits
	 * @param runSession the session of alice's background run
	 * @param runId alice's finished background run
	 * @param taskId alice's A2A task, waiting for her approval
	 * @param contextId the A2A task's context (its session)
	 */
	record Alices(String secret, String chat, String paused, String callId, String runSession, String runId,
			String taskId, String contextId) {
	}

	/**
	 * Alice's data as it stands.
	 * @param conversations each session's messages and pending turn
	 * @param runStatus the status of her run
	 * @param taskState the state of her A2A task
	 */
	record Snapshot(List<String> conversations, String runStatus, String taskState) {
	}

	/** The refusal each entry point owes. */
	enum Expect {

		/** The starter's routes: the 404 of an unknown session. */
		NOT_FOUND {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.status()).as("%s: answered %s", cell, reply).isEqualTo(404);
			}
		},

		/** A client error; for routes that may also refuse anonymous callers outright. */
		REFUSED_4XX {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.status()).as("%s: answered %s", cell, reply).isBetween(400, 499);
			}
		},

		/** Any error: an application's own controller, an MCP error result. */
		REFUSED {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.status()).as("%s: answered %s", cell, reply).isGreaterThanOrEqualTo(400);
			}
		},

		/** {@code Agent.stream}'s refusal: a stream of nothing but the {@code Failed} event that ends it. */
		FAILED_EVENT {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.body()).as("%s: answered %s", cell, reply)
					.startsWith(OwnershipMatrixApplication.ChatStreamController.FAILED)
					.contains("No session '" + alices.chat() + "'");
			}
		},

		/** A JSON-RPC error, as an answer or as the stream's only event. */
		RPC_ERROR {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.body()).as("%s: answered %s", cell, reply).contains("\"error\"").doesNotContain("\"result\"");
			}
		},

		/** A listing that holds none of alice's sessions, or a refusal. */
		NOT_LISTED {
			@Override
			void check(String cell, Reply reply, Alices alices) {
				assertThat(reply.status()).as("%s: answered %s", cell, reply).isLessThan(500);
				assertThat(reply.body()).as("%s: answered %s", cell, reply)
					.doesNotContain(alices.chat(), alices.paused(), alices.runSession(), alices.contextId());
			}
		};

		abstract void check(String cell, Reply reply, Alices alices);

	}

}
