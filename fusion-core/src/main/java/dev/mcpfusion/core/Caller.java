package dev.mcpfusion.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Who makes the request being served: the subject and client an authenticator vouched for, the
 * scopes they were granted and the claims of their token. Injectable into a handler as
 * {@code @Context Caller caller}; middleware, context providers and egress filters read it from
 * {@link RequestContext#caller()}.
 *
 * <pre>{@code
 * @Mutation(description = "Void an invoice")
 * @Scopes("invoices:write")
 * public Invoice voidInvoice(@NotBlank String id, @Context Caller caller) {
 *   return invoices.voidIt(id, caller.subject().orElse("local"));
 * }
 * }</pre>
 *
 * <p>A transport without authentication (stdio, where the host that started the process is the
 * only caller; the tester; HTTP with no authenticator) serves the {@link #local() local} caller:
 * no identity, and no scope requirement applies to it. An HTTP authenticator yields an
 * {@link #of authenticated} caller, whose scopes are checked against every {@code @Scopes}
 * requirement.
 *
 * <p>Immutable. {@link #toString()} names the subject and scopes, never the claims (they may hold
 * personal data).
 */
public final class Caller {
  private static final Caller LOCAL = new Caller(null, null, Set.of(), Map.of(), true);

  private final String subject;
  private final String clientId;
  private final Set<String> scopes;
  private final Map<String, Object> claims;
  private final boolean local;

  private Caller(String subject, String clientId, Set<String> scopes, Map<String, Object> claims,
      boolean local) {
    this.subject = subject;
    this.clientId = clientId;
    this.scopes = scopes;
    this.claims = claims;
    this.local = local;
  }

  /**
   * The caller of a transport without authentication: no subject, no client, no scopes, and every
   * scope check passes (the process's host, or a deployment that chose not to authenticate).
   */
  public static Caller local() {
    return LOCAL;
  }

  /** An authenticated caller with a subject and the scopes it was granted, no client id or claims. */
  public static Caller of(String subject, Collection<String> scopes) {
    return of(subject, null, scopes, Map.of());
  }

  /**
   * An authenticated caller.
   *
   * @param subject who it is (a token's {@code sub}, an API key's name); not blank
   * @param clientId the OAuth client it came through ({@code client_id}/{@code azp}), or {@code null}
   * @param scopes the scopes granted (order kept, duplicates and blanks dropped)
   * @param claims the token's claims (copied; may be empty)
   */
  public static Caller of(String subject, String clientId, Collection<String> scopes,
      Map<String, ?> claims) {
    Objects.requireNonNull(subject, "subject");
    if (subject.isBlank()) {
      throw new IllegalArgumentException("A caller's subject must not be blank.");
    }
    Set<String> granted = new LinkedHashSet<>();
    for (String scope : scopes == null ? List.<String>of() : scopes) {
      if (scope != null && !scope.isBlank()) {
        granted.add(scope);
      }
    }
    Map<String, Object> copied = claims == null ? Map.of()
        : Collections.unmodifiableMap(new LinkedHashMap<>(claims));
    return new Caller(subject, clientId == null || clientId.isBlank() ? null : clientId,
        Collections.unmodifiableSet(granted), copied, false);
  }

  /** Whether this is the {@link #local()} caller (no authentication took place). */
  public boolean isLocal() {
    return local;
  }

  /** Who it is; empty for the local caller. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }

  /** The OAuth client it came through, when known. */
  public Optional<String> clientId() {
    return Optional.ofNullable(clientId);
  }

  /** The scopes granted, in the order the credential listed them; empty for the local caller. */
  public Set<String> scopes() {
    return scopes;
  }

  /** The credential's claims (a JWT's payload, an introspection answer); empty when none. */
  public Map<String, Object> claims() {
    return claims;
  }

  /** Whether the caller may use what requires {@code scope} (always, for the local caller). */
  public boolean hasScope(String scope) {
    return local || scopes.contains(scope);
  }

  /**
   * The scopes of {@code required} this caller lacks, in their order; empty when it has them all
   * (always, for the local caller).
   */
  public List<String> missing(Collection<String> required) {
    if (local || required.isEmpty()) {
      return List.of();
    }
    List<String> missing = new ArrayList<>(0);
    for (String scope : required) {
      if (!scopes.contains(scope)) {
        missing.add(scope);
      }
    }
    return missing;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Caller c && local == c.local && Objects.equals(subject, c.subject)
        && Objects.equals(clientId, c.clientId) && scopes.equals(c.scopes) && claims.equals(c.claims);
  }

  @Override
  public int hashCode() {
    return Objects.hash(subject, clientId, scopes, local);
  }

  @Override
  public String toString() {
    return local ? "Caller[local]" : "Caller[subject=" + subject
        + (clientId == null ? "" : ", client=" + clientId) + ", scopes=" + scopes + "]";
  }
}
