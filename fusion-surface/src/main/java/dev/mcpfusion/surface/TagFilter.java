package dev.mcpfusion.surface;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The tags a server shows: those it was built with, narrowed by a request's {@value #HEADER}
 * header and, when tags are mapped to scopes, by the scopes its caller holds. Immutable.
 */
public final class TagFilter {
  /** The HTTP header a client narrows its tools with: tags separated by commas. */
  public static final String HEADER = "Mcp-Fusion-Tags";

  private final Set<String> serverTags;
  private final Map<String, String> tagScopes;

  /**
   * @param serverTags the tags every request is narrowed to, or {@code null} for every tag
   * @param tagScopes tag → the scope a caller must hold to see the actions carrying it
   */
  public TagFilter(Set<String> serverTags, Map<String, String> tagScopes) {
    this.serverTags = serverTags == null ? null : Set.copyOf(serverTags);
    this.tagScopes = Map.copyOf(tagScopes);
  }

  /**
   * The tags a request asks for, or {@code null} for every tag: the server's, narrowed by
   * {@code header} (the value of its {@value #HEADER} header, or {@code null}) and, unless the
   * caller is {@code local} (no authenticator vouched for it), by the tags whose scope it
   * {@code holds}.
   */
  public Set<String> wanted(String header, boolean local, Predicate<String> holds) {
    Set<String> wanted = serverTags == null ? null : new LinkedHashSet<>(serverTags);
    if (header != null && !header.isBlank()) {
      Set<String> named = new LinkedHashSet<>();
      for (String tag : header.split(",")) {
        if (!tag.isBlank()) {
          named.add(tag.trim().toLowerCase(Locale.ROOT));
        }
      }
      wanted = narrow(wanted, named);
    }
    if (!tagScopes.isEmpty() && !local) {
      Set<String> granted = new LinkedHashSet<>();
      tagScopes.forEach((tag, scope) -> {
        if (holds.test(scope)) {
          granted.add(tag);
        }
      });
      wanted = narrow(wanted, granted);
    }
    return wanted;
  }

  private static Set<String> narrow(Set<String> wanted, Set<String> by) {
    if (wanted == null) {
      return by;
    }
    wanted.retainAll(by);
    return wanted;
  }
}
