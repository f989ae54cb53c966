package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.ProtectedResource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;

/**
 * The endpoint's caller from the principal Spring Security authenticated for this request: the
 * subject is the principal's name ({@code sub} by default), the client its {@code client_id} or
 * {@code azp}, the scopes its {@code scope} or {@code scp} claim (and any {@code SCOPE_} authority),
 * the claims its token attributes. A request Spring Security let through unauthenticated (anonymous)
 * is refused with the endpoint's own {@code 401}, and so is a token whose {@code aud} names neither
 * this resource nor a configured audience: the endpoint stays closed even under a filter chain that
 * lets it open.
 *
 * <p>Reads the {@link SecurityContextHolder} of the thread serving the request: the endpoint asks
 * for its caller on that thread, inside Spring Security's filter chain.
 */
final class SpringSecurityCaller implements HttpAuthenticator {
  private static final Logger log = LoggerFactory.getLogger(SpringSecurityCaller.class);
  private static final String SCOPE_AUTHORITY = "SCOPE_";

  private final ProtectedResource metadata;
  private final Set<String> audiences;

  /** The caller of an endpoint described by {@code metadata} whose tokens name one of {@code audiences}. */
  SpringSecurityCaller(ProtectedResource metadata, Set<String> audiences) {
    this.metadata = metadata;
    this.audiences = Set.copyOf(audiences);
  }

  @Override
  public boolean authenticate(Map<String, String> headers) {
    return verify(headers).isAccepted();
  }

  @Override
  public Authentication verify(Map<String, String> headers) {
    org.springframework.security.core.Authentication principal =
        SecurityContextHolder.getContextHolderStrategy().getContext().getAuthentication();
    if (principal == null || !principal.isAuthenticated()
        || principal instanceof AnonymousAuthenticationToken) {
      return Authentication.missing();
    }
    String subject = principal.getName();
    if (subject == null || subject.isBlank()) {
      log.debug("Refused a principal without a name (a token without its subject claim)");
      return Authentication.invalid();
    }
    Map<String, Object> claims = principal instanceof AbstractOAuth2TokenAuthenticationToken<?> token
        ? token.getTokenAttributes() : Map.of();
    if (principal instanceof AbstractOAuth2TokenAuthenticationToken<?> && !forThisResource(claims.get("aud"))) {
      log.debug("Refused a token whose audience is not this resource ({})", metadata.resource());
      return Authentication.invalid();
    }
    return Authentication.accepted(Caller.of(subject, clientId(claims), scopes(claims, principal), claims));
  }

  @Override
  public ProtectedResource protectedResource() {
    return metadata;
  }

  /** Whether {@code aud} (a string or a list of them) names this resource or a configured audience. */
  private boolean forThisResource(Object aud) {
    if (aud instanceof String one) {
      return audiences.contains(one);
    }
    if (aud instanceof Collection<?> many) {
      return many.stream().anyMatch(a -> a != null && audiences.contains(a.toString()));
    }
    return false;
  }

  private static String clientId(Map<String, Object> claims) {
    Object id = claims.get("client_id");
    if (id == null) {
      id = claims.get("azp");
    }
    return id == null ? null : id.toString();
  }

  /** The {@code scope} claim (space-separated, RFC 9068) or {@code scp} (a list), then {@code SCOPE_} authorities. */
  private static List<String> scopes(Map<String, Object> claims,
      org.springframework.security.core.Authentication principal) {
    List<String> scopes = new ArrayList<>();
    Object claim = claims.containsKey("scope") ? claims.get("scope") : claims.get("scp");
    if (claim instanceof String text) {
      scopes.addAll(List.of(text.trim().split("\\s+")));
    } else if (claim instanceof Collection<?> list) {
      list.forEach(s -> scopes.add(String.valueOf(s)));
    }
    for (GrantedAuthority authority : principal.getAuthorities()) {
      String name = authority.getAuthority();
      if (name != null && name.startsWith(SCOPE_AUTHORITY)) {
        scopes.add(name.substring(SCOPE_AUTHORITY.length()));
      }
    }
    return scopes;
  }
}
