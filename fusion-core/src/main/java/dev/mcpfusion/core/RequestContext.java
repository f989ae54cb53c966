package dev.mcpfusion.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the framework knows about the request being served — transport headers, the call's
 * {@code params._meta}, the session and the protocol version — and the way back to the client
 * that made it: {@link #progress}, {@link #log}, {@link #cancelled}, {@link #sample},
 * {@link #elicit}, {@link #roots}, and extra result {@link #attach content}. Always injectable into a handler
 * parameter and handed to every context provider.
 *
 * <pre>{@code
 * @Mutation(description = "Import the ledger")
 * public String importLedger(@NotBlank String url, RequestContext request) {
 *   for (int i = 0; i < 10 && !request.cancelled(); i++) {
 *     request.progress(i, 10, "Batch " + i);
 *   }
 *   request.log(LogLevel.INFO, "Imported " + url);
 *   return "Imported";
 * }
 * }</pre>
 *
 * <p>The same handler code asks the client in both protocol eras: in a 2025-11-25 session
 * {@link #sample}, {@link #elicit} and {@link #roots} send the client a request and wait; a
 * 2026-07-28 call is stateless, so it is answered with an input-required result and the client's
 * retry runs the handler again with the answers ({@link #askAll} says what that means for a
 * handler). Notifications of a 2026-07-28 call reach the client on the call's own stream: stdio, or
 * the SSE response of a POST that accepts {@code text/event-stream}.
 *
 * <p>Everything said here leaves through the server's egress chain, like the call's answer: its
 * text is redacted (the server-wide detectors, with those of the action's view), the egress
 * filters see it, and a message over the action's byte cap is not sent ({@link #progress} and
 * {@link #log} then return {@code false}; {@link #sample} and {@link #elicit} throw).
 */
public final class RequestContext {
  /** How long {@link #sample} and {@link #elicit} wait for the client (a person may be answering). */
  private static final Duration ASK_TIMEOUT = Duration.ofMinutes(10);

  private final Map<String, String> headers;
  private final Map<String, Object> meta;
  private final String sessionId;
  private final String protocolVersion;
  private final ClientLink link;
  private final Caller caller;
  private final String networkTransport;
  private final List<Content> attached = Collections.synchronizedList(new ArrayList<>());
  /** Whether anything was attached: read on every call, so the usual "nothing" takes no lock. */
  private volatile boolean anyAttached;
  /** Whether the handler said it changed something ({@link #markChanged}): it may not ask any more. */
  private volatile boolean changed;
  /** What this run of the handler carried ({@link #carry}). */
  private final Map<String, String> carriedHere = new java.util.concurrent.ConcurrentHashMap<>();

  private RequestContext(Map<String, String> headers, Map<String, Object> meta, String sessionId,
      String protocolVersion, ClientLink link, Caller caller, String networkTransport) {
    TreeMap<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (headers != null) {
      h.putAll(headers);
    }
    this.headers = Collections.unmodifiableMap(h);
    this.meta = meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
    this.link = link == null ? ClientLink.NONE : link;
    this.caller = caller == null ? Caller.local() : caller;
    this.networkTransport = networkTransport;
  }

  /** A context with the given parts, reaching no client; any may be {@code null}. */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion) {
    return new RequestContext(headers, meta, sessionId, protocolVersion, null, null, null);
  }

  /**
   * A context with the given parts whose client is reached through {@code link} (the framework's
   * front door passes one per call); any part may be {@code null}.
   */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion, ClientLink link) {
    return new RequestContext(headers, meta, sessionId, protocolVersion, link, null, null);
  }

  /**
   * As {@link #of(Map, Map, String, String, ClientLink)}, for a request that came over
   * {@code networkTransport} (the OpenTelemetry {@code network.transport}: {@code pipe} for stdio,
   * {@code tcp} for HTTP; {@code null} in memory).
   */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion, ClientLink link, String networkTransport) {
    return new RequestContext(headers, meta, sessionId, protocolVersion, link, null,
        networkTransport);
  }

  /**
   * A context with the given parts, made by {@code caller} ({@code null}: the {@link Caller#local()
   * local} caller), whose client is reached through {@code link}; any other part may be
   * {@code null}.
   */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion, ClientLink link, Caller caller) {
    return new RequestContext(headers, meta, sessionId, protocolVersion, link, caller, null);
  }

  /**
   * A context for a request from {@code caller} that came over {@code networkTransport} (both as
   * in the overloads above; either may be {@code null}).
   */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion, ClientLink link, Caller caller,
      String networkTransport) {
    return new RequestContext(headers, meta, sessionId, protocolVersion, link, caller,
        networkTransport);
  }

  /** An empty context (no transport headers, no {@code _meta}, no client, the local caller). */
  public static RequestContext empty() {
    return new RequestContext(null, null, null, null, null, null, null);
  }

  /**
   * Who makes this request: the caller the transport's authenticator vouched for, or
   * {@link Caller#local()} where nothing authenticates (stdio, HTTP without an authenticator).
   */
  public Caller caller() {
    return caller;
  }

  /** The transport headers (HTTP), case-insensitive; empty on stdio and in memory. */
  public Map<String, String> headers() {
    return headers;
  }

  /** One header, case-insensitive. */
  public Optional<String> header(String name) {
    // The map's order ignores case: the name needs no lower-casing (and no copy) per lookup.
    return Optional.ofNullable(headers.get(name));
  }

  /** The request's {@code params._meta}. */
  public Map<String, Object> meta() {
    return meta;
  }

  /** The MCP session id, if the transport has sessions. */
  public Optional<String> sessionId() {
    return Optional.ofNullable(sessionId);
  }

  /**
   * The transport the request came over, as OpenTelemetry's {@code network.transport} names it
   * ({@code pipe} for stdio, {@code tcp} for HTTP); empty in memory.
   */
  public Optional<String> networkTransport() {
    return Optional.ofNullable(networkTransport);
  }

  /** The negotiated protocol version, if known. */
  public Optional<String> protocolVersion() {
    return Optional.ofNullable(protocolVersion);
  }

  // ---- talking back ----------------------------------------------------------------------------

  /** The client's {@code progressToken} for this call ({@code params._meta.progressToken}), if it sent one. */
  public Optional<Object> progressToken() {
    Object token = meta.get("progressToken");
    return token instanceof String || token instanceof Number ? Optional.of(token) : Optional.empty();
  }

  /**
   * Reports progress ({@code notifications/progress}). Sent only when the client asked for
   * progress with a {@code progressToken}; otherwise nothing is sent. {@code done} should grow
   * with every report.
   *
   * @param total the amount of work, or a value below 0 when unknown
   * @param message a human-readable step, or {@code null}
   * @return whether a notification was sent
   */
  public boolean progress(double done, double total, String message) {
    Optional<Object> token = progressToken();
    if (token.isEmpty() || link.cancelled()) {
      return false;
    }
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("progressToken", token.get());
    params.put("progress", number(done));
    if (total >= 0) {
      params.put("total", number(total));
    }
    if (message != null) {
      params.put("message", message);
    }
    return link.notify("notifications/progress", params);
  }

  /** Reports progress without a known total. */
  public boolean progress(double done, String message) {
    return progress(done, -1, message);
  }

  private static Object number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) value : (Object) value;
  }

  /**
   * Sends a log message to the client ({@code notifications/message}) when {@code level} is at or
   * above the level the client chose with {@code logging/setLevel}.
   *
   * @return whether a notification was sent
   */
  public boolean log(LogLevel level, String message) {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(message, "message");
    LogLevel wanted = link.logLevel();
    if (wanted == null || level.compareTo(wanted) < 0 || link.cancelled()) {
      return false;
    }
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("level", level.wire());
    params.put("data", message);
    return link.notify("notifications/message", params);
  }

  /**
   * Starts this call's task, in a call of a {@code @TaskSupport(inputFirst = true)} action from a
   * 2026-07-28 client that declared the tasks extension: the client is answered with the task's
   * handle now and polls {@code tasks/get} for what the handler returns. Ask the client everything
   * before: a question after this ends the task with the tool error {@code ASKED_AFTER_START}.
   * Anywhere else (the 2025 era, a client without
   * the extension, another action) it does nothing, and the call answers directly as usual.
   *
   * @return whether the call now runs as a task
   * @throws FusionError {@code SERVER_BUSY} when the server holds as many tasks as it keeps
   */
  public boolean startTask() {
    return link.startTask();
  }

  /**
   * Whether the client cancelled this call ({@code notifications/cancelled}). A cancelled call's
   * thread is also interrupted, and whatever it returns is discarded: nothing more reaches the
   * client. A long loop should check this and stop.
   */
  public boolean cancelled() {
    return link.cancelled();
  }

  /**
   * Asks the client's model to write a message ({@code sampling/createMessage}) and waits for it.
   *
   * @throws FusionError {@code CLIENT_UNAVAILABLE} when the client did not declare sampling;
   *     {@code CLIENT_ERROR} when the client refused or failed
   */
  public Sampling.Result sample(Sampling request) {
    return ask(Question.sampling(request));
  }

  /**
   * Shows the user a form ({@code elicitation/create}) made from the record {@code form} and waits
   * for the answer. Each component is a field: its {@code @Describe} text is the description;
   * {@code String}, integer and decimal numbers, {@code boolean}, an enum (single choice; constants
   * with {@code @Describe} titles are sent as titled options) or a {@code List}/{@code Set} of an
   * enum (multiple choice, {@code @Size} bounds the count); required by the tool-input rule
   * (primitive, {@code @NotNull}, {@code @NotBlank}, {@code @NotEmpty}). An accepted answer is
   * checked against the form before the handler sees it.
   *
   * @throws FusionError {@code INVALID_ELICITATION} when the client's answer does not match the
   *     form (naming every field at fault); {@code CLIENT_UNAVAILABLE} / {@code CLIENT_ERROR} as
   *     for {@link #sample}
   * @throws IllegalArgumentException when {@code form} is not a record of such fields
   */
  public <T> Elicitation<T> elicit(Class<T> form, String message) {
    return ask(Question.form(form, message));
  }

  /**
   * Like {@link #elicit(Class, String)}, with every non-null component of {@code defaults} sent as
   * that field's {@code default} (the form the user sees is pre-filled).
   */
  public <T extends Record> Elicitation<T> elicitWithDefaults(T defaults, String message) {
    return ask(Question.formWithDefaults(defaults, message));
  }

  /**
   * The client's roots ({@code roots/list}): the directories and files it lets the server work
   * with.
   *
   * @throws FusionError {@code CLIENT_UNAVAILABLE} when the client did not declare the
   *     {@code roots} capability; {@code CLIENT_ERROR} when it refused or answered without a
   *     {@code roots} array of objects with a {@code uri}
   */
  public List<Root> roots() {
    return ask(Question.roots());
  }

  /** Asks the client one {@link Question} and waits for the answer (see {@link #askAll}). */
  public <T> T ask(Question<T> question) {
    return askAll(question).get(question);
  }

  /**
   * Asks the client every question at once and waits for all the answers.
   *
   * <p>In a 2025-11-25 session each question is a request to the client, sent one after the other.
   * A 2026-07-28 call is stateless: its questions are answered with an input-required result (the
   * questions as {@code inputRequests} and a signed {@code requestState}), and the client's retry,
   * carrying the answers and the state, runs the handler again from the start, where this method
   * now returns the answers. So a handler asks before it changes anything: everything it did before
   * asking is done again on every round.
   *
   * @throws FusionError {@code CLIENT_UNAVAILABLE} when the client did not declare a question's
   *     capability (in the 2026-07-28 era the request is then answered with -32021, naming it);
   *     {@code CLIENT_ERROR}, {@code CLIENT_TIMEOUT}, {@code INVALID_ELICITATION} as for each question
   */
  public Answers askAll(Question<?>... questions) {
    if (changed) {
      throw new IllegalStateException("The handler asked the client (" + questions.length
          + " question(s)) after it called markChanged(): in the 2026-07-28 era a handler runs again"
          + " from the start when the client answers, so the change would be made again. Ask before"
          + " changing anything, or keep what is done with carry(key, value) and skip it when"
          + " carried(key) has it.");
    }
    List<ClientLink.Ask> asks = new ArrayList<>(questions.length);
    for (Question<?> q : questions) {
      Objects.requireNonNull(q, "question");
      refuseUnlessAble(q.capability(), verb(q.capability()));
      asks.add(new ClientLink.Ask(q.key(), q.method(), q.params()));
    }
    List<Map<String, Object>> results = link.askAll(asks, ASK_TIMEOUT);
    Map<Question<?>, Object> answers = new java.util.IdentityHashMap<>();
    for (int i = 0; i < questions.length; i++) {
      answers.put(questions[i], questions[i].read(results.get(i)));
    }
    return new Answers(answers);
  }

  /**
   * Says that the handler has changed something (written, sent, charged): from here on it may not
   * ask the client — {@link #askAll} and everything that asks throw an {@link IllegalStateException}
   * (an {@code INTERNAL_ERROR} for the agent, the fix in the server log) in both eras, because in
   * the 2026-07-28 era the handler would run again from the start when the client answered.
   */
  public void markChanged() {
    changed = true;
  }

  /**
   * Keeps {@code value} under {@code key} for the rest of this call, across the rounds of a
   * 2026-07-28 input-required exchange: it travels in the signed request state (the client cannot
   * change it, though it can read it: keep secrets out), so a handler that did part of its work
   * before asking can skip that part when it runs again. In a 2025-11-25 session the call runs once
   * and the value is simply kept. Counts towards the request state's size limit.
   */
  public void carry(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    carriedHere.put(key, value);
    link.carry(key, value);
  }

  /** The value {@link #carry carried} under {@code key} by this call, in this round or an earlier one. */
  public Optional<String> carried(String key) {
    Objects.requireNonNull(key, "key");
    String here = carriedHere.get(key);
    return Optional.ofNullable(here != null ? here : link.carried(key));
  }

  private static String verb(String capability) {
    return switch (capability) {
      case "sampling" -> "sample";
      case "elicitation" -> "elicit";
      default -> "ask for the client's " + capability;
    };
  }

  /**
   * Whether the client declared {@code capability} ({@code sampling}, {@code elicitation},
   * {@code roots}, …): in its {@code initialize} (2025 era) or in this request's
   * {@code io.modelcontextprotocol/clientCapabilities} (2026-07-28). A handler that can do without
   * an answer asks only what the client can answer.
   */
  public boolean clientDeclared(String capability) {
    Objects.requireNonNull(capability, "capability");
    return link.declared(capability);
  }

  private void refuseUnlessAble(String capability, String verb) {
    String why = link.cannotAsk(capability);
    if (why != null) {
      throw FusionError.of("CLIENT_UNAVAILABLE", "Cannot " + verb + ": " + why + ".")
          .recovery("Answer without " + capability + ", or ask the user in the conversation.");
    }
  }

  /**
   * Adds content blocks (image, audio, embedded resource, resource link) to this call's result;
   * they follow the presenter's text, in order. A {@code void} handler that attaches content
   * answers with the attached blocks alone. Dropped when the call ends in an error. They leave like
   * everything else the call answers: their text is redacted (the server-wide detectors, with those
   * of the action's view), the egress filters see them, and the action's byte cap counts them.
   */
  public void attach(Content... content) {
    for (Content c : content) {
      attached.add(Objects.requireNonNull(c, "content"));
      anyAttached = true;
    }
  }

  /** The content attached so far, in order. */
  public List<Content> attachments() {
    if (!anyAttached) {
      return List.of();
    }
    synchronized (attached) {
      return List.copyOf(attached);
    }
  }
}
