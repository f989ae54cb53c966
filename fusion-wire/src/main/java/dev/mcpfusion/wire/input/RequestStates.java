package dev.mcpfusion.wire.input;

import dev.mcpfusion.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the {@code requestState} of a 2026-07-28 input-required result: the answers a
 * call has gathered so far and the questions it is waiting for, bound to the request that made it
 * (method, target and a hash of its arguments) and to an expiry, signed with HMAC-SHA256. The
 * server keeps nothing between the rounds, so any instance that holds the same key can open a
 * state another one sealed.
 *
 * <p>The state is signed, not encrypted: everything in it is what the client sent or was sent
 * (its own answers, the server's questions). Its text is {@code base64url(json) "." base64url(mac)}.
 *
 * <p>Thread-safe and immutable.
 */
public final class RequestStates {
  /** The shortest key accepted: HMAC-SHA256 with less than 256 bits of key is weaker than its hash. */
  public static final int MIN_KEY_BYTES = 32;
  /** How long a state stays valid by default: as long as a 2025 session waits for an answer. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
  /** The largest state issued or accepted by default, in characters (bytes: it is ASCII). */
  public static final int DEFAULT_MAX_BYTES = 64 * 1024;

  private static final String ALGORITHM = "HmacSHA256";
  private static final int VERSION = 1;

  private final byte[] key;
  private final Duration ttl;
  private final int maxBytes;
  private final Clock clock;
  private final boolean randomKey;

  private RequestStates(byte[] key, boolean randomKey, Duration ttl, int maxBytes, Clock clock) {
    this.key = key.clone();
    this.randomKey = randomKey;
    this.ttl = ttl;
    this.maxBytes = maxBytes;
    this.clock = clock;
  }

  /**
   * States signed with {@code key} (at least {@value #MIN_KEY_BYTES} bytes), or with a random key
   * of this process when {@code key} is {@code null}.
   *
   * @throws IllegalArgumentException for a key shorter than {@value #MIN_KEY_BYTES} bytes, a
   *     {@code ttl} that is not positive or a {@code maxBytes} below 1024
   */
  public static RequestStates of(byte[] key, Duration ttl, int maxBytes, Clock clock) {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(clock, "clock");
    if (key != null && key.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException("The request-state key has " + key.length + " bytes; use at"
          + " least " + MIN_KEY_BYTES + " random bytes (e.g. 32 bytes from a secret store, the same"
          + " on every instance of the server).");
    }
    if (ttl.isZero() || ttl.isNegative()) {
      throw new IllegalArgumentException("The request-state lifetime must be positive but was " + ttl + ".");
    }
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("The request-state size limit must be at least 1024 bytes"
          + " but was " + maxBytes + ".");
    }
    if (key == null) {
      byte[] random = new byte[MIN_KEY_BYTES];
      new SecureRandom().nextBytes(random);
      return new RequestStates(random, true, ttl, maxBytes, clock);
    }
    return new RequestStates(key, false, ttl, maxBytes, clock);
  }

  /** States with a random per-process key and the default lifetime and size limit. */
  public static RequestStates perProcess() {
    return of(null, DEFAULT_TTL, DEFAULT_MAX_BYTES, Clock.systemUTC());
  }

  /** Whether the key was made at random for this process (no other instance can open its states). */
  public boolean randomKey() {
    return randomKey;
  }

  /** The largest state issued or accepted, in bytes. */
  public int maxBytes() {
    return maxBytes;
  }

  /** How long a state stays valid after it is issued. */
  public Duration ttl() {
    return ttl;
  }

  /**
   * The hash that binds a state to one request: its method, its target (tool, prompt or resource)
   * and its arguments, written canonically (object keys sorted), so the same call gives the same
   * binding on any instance.
   */
  public static String binding(String method, String target, Object arguments) {
    String canonical = method + "\n" + target + "\n" + Json.write(canonical(arguments));
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private static Object canonical(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
      return sorted;
    }
    if (tree instanceof List<?> list) {
      return list.stream().map(RequestStates::canonical).toList();
    }
    return tree;
  }

  /**
   * Seals {@code payload} (a plain JSON tree) for the request with {@code binding}.
   *
   * @throws TooLarge when the sealed state would exceed {@link #maxBytes()}
   */
  public String seal(String binding, Map<String, Object> payload) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("v", VERSION);
    body.put("b", binding);
    body.put("e", clock.instant().plus(ttl).getEpochSecond());
    body.put("p", payload);
    String text = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(Json.write(body).getBytes(StandardCharsets.UTF_8));
    String sealed = text + "." + mac(text);
    if (sealed.length() > maxBytes) {
      throw new TooLarge(sealed.length(), maxBytes);
    }
    return sealed;
  }

  /**
   * Opens a state the client sent back with a request whose binding is {@code binding}: its
   * payload, once its size, signature, binding and expiry are checked.
   *
   * @throws Rejected naming what is wrong and how the client recovers
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> open(String state, String binding) {
    if (state.length() > maxBytes) {
      throw new Rejected(Reason.OVERSIZED, "requestState is " + state.length() + " bytes, more than the "
          + maxBytes + " bytes this server issues, so it did not come from this server.");
    }
    int dot = state.lastIndexOf('.');
    if (dot <= 0 || !MessageDigest.isEqual(
        mac(state.substring(0, dot)).getBytes(StandardCharsets.US_ASCII),
        state.substring(dot + 1).getBytes(StandardCharsets.US_ASCII))) {
      throw new Rejected(Reason.TAMPERED, "requestState was changed or was not issued by this server"
          + " (its signature does not match).");
    }
    Map<String, Object> body;
    try {
      String json = new String(Base64.getUrlDecoder().decode(state.substring(0, dot)), StandardCharsets.UTF_8);
      body = (Map<String, Object>) Json.parse(json);
    } catch (RuntimeException e) {
      // Signed by our key but unreadable: only a server with the same key and another format.
      throw new Rejected(Reason.TAMPERED, "requestState could not be read by this server.");
    }
    if (!(body.get("v") instanceof Number v) || v.intValue() != VERSION
        || !(body.get("e") instanceof Number expiry) || !(body.get("p") instanceof Map<?, ?> payload)) {
      throw new Rejected(Reason.TAMPERED, "requestState could not be read by this server.");
    }
    if (!binding.equals(body.get("b"))) {
      throw new Rejected(Reason.FOREIGN, "requestState belongs to another request (a different tool,"
          + " prompt or resource, or different arguments); send a state only with the request that"
          + " received it.");
    }
    Instant expires = Instant.ofEpochSecond(expiry.longValue());
    if (!clock.instant().isBefore(expires)) {
      throw new Rejected(Reason.EXPIRED, "requestState expired at " + expires + " (a state is valid for "
          + ttl.toMinutes() + " minutes after it is issued).");
    }
    return (Map<String, Object>) payload;
  }

  private String mac(String text) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      return Base64.getUrlEncoder().withoutPadding()
          .encodeToString(mac.doFinal(text.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is not available", e);
    }
  }

  /** Why a state was refused. */
  public enum Reason {
    /** Longer than any state this server issues. */
    OVERSIZED,
    /** Its signature does not match: edited, truncated, or sealed with another key. */
    TAMPERED,
    /** Sealed for another request (method, target or arguments differ). */
    FOREIGN,
    /** Past its expiry. */
    EXPIRED
  }

  /** A state the client sent that this server will not use; the message says why. */
  public static final class Rejected extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Reason reason;

    Rejected(Reason reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }

    /** Why it was refused. */
    public Reason reason() {
      return reason;
    }
  }

  /** A state this server would issue that is larger than its limit. */
  public static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int size;
    private final int limit;

    TooLarge(int size, int limit) {
      super("the request state would be " + size + " bytes, more than " + limit, null, false, false);
      this.size = size;
      this.limit = limit;
    }

    /** The size the state would have had. */
    public int size() {
      return size;
    }

    /** The limit. */
    public int limit() {
      return limit;
    }
  }
}
