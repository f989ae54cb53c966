package dev.mcpfusion.lock;

import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One resource or resource template as the client sees it and what it lets out.
 *
 * @param uri the URI or URI template
 * @param router the router of its class ({@code ""} when the class is not a router): a mutation
 *     invalidating it notifies the resource's subscribers
 * @param name the MCP name
 * @param title the MCP title ({@code ""} for none)
 * @param description the description
 * @param mimeType the MIME type
 * @param binary whether its content is bytes ({@code blob}) rather than text
 * @param presenter the presenter of its content, or {@code null}
 * @param limits its limits as the server resolves them, by name, as a prompt's
 * @param completionLimits the limits of each template variable's {@code @Complete} method, by
 *     variable (only those with a limit)
 * @param icons its icons, in order (none for most resources)
 * @param scopes the OAuth scopes a caller needs to see and read it ({@code @Scopes} of its class
 *     and method), sorted; empty when none
 */
public record ResourceContract(String uri, String router, String name, String title,
    String description, String mimeType, boolean binary, PresenterContract presenter,
    Map<String, Long> limits, Map<String, Map<String, Long>> completionLimits,
    List<IconContract> icons, List<String> scopes) {

  public ResourceContract {
    limits = Collections.unmodifiableMap(new TreeMap<>(limits));
    completionLimits = FeatureLimits.copy(completionLimits);
    icons = List.copyOf(icons);
    scopes = scopes == null ? List.of() : List.copyOf(new TreeSet<>(scopes));
  }

  /** A resource that requires no scope. */
  public ResourceContract(String uri, String router, String name, String title,
      String description, String mimeType, boolean binary, PresenterContract presenter,
      Map<String, Long> limits, Map<String, Map<String, Long>> completionLimits,
      List<IconContract> icons) {
    this(uri, router, name, title, description, mimeType, binary, presenter, limits,
        completionLimits, icons, List.of());
  }

  /** A resource without icons. */
  public ResourceContract(String uri, String router, String name, String title,
      String description, String mimeType, boolean binary, PresenterContract presenter,
      Map<String, Long> limits, Map<String, Map<String, Long>> completionLimits) {
    this(uri, router, name, title, description, mimeType, binary, presenter, limits,
        completionLimits, List.of());
  }

  /** A resource without limits. */
  public ResourceContract(String uri, String router, String name, String title,
      String description, String mimeType, boolean binary, PresenterContract presenter) {
    this(uri, router, name, title, description, mimeType, binary, presenter, Map.of(), Map.of());
  }

  static ResourceContract of(FeaturesDescriptor f, ResourceDescriptor d, LockProfile profile) {
    return new ResourceContract(d.uri(), f.router(), d.name(), d.title(), d.description(),
        d.mimeType(), d.binary(), d.presenter() == null ? null : PresenterContract.of(d.presenter()),
        ActionLimits.ofResource(profile.limits(), f, d, new ArrayList<>()).named(),
        FeatureLimits.completions(f, null, d.uri(), profile), IconContract.of(d.icons()), d.scopes());
  }

  /** {@code sha256:} of this resource's canonical JSON (everything but the digest itself). */
  public String digest() {
    return Canonical.digest(content());
  }

  private Map<String, Object> content() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("binary", binary);
    // Only when set: a resource without limits reads (and digests) as before limits were recorded.
    if (!completionLimits.isEmpty()) {
      tree.put("completionLimits", completionLimits);
    }
    tree.put("description", description);
    // Only when set, as limits: a resource without icons keeps its digest.
    if (!icons.isEmpty()) {
      tree.put("icons", IconContract.toTrees(icons));
    }
    if (!limits.isEmpty()) {
      tree.put("limits", limits);
    }
    tree.put("mimeType", mimeType);
    tree.put("name", name);
    if (presenter != null) {
      tree.put("presenter", presenter.toTree());
    }
    tree.put("router", router);
    // Only when required, as on actions: a resource without scopes keeps its digest.
    if (!scopes.isEmpty()) {
      tree.put("scopes", scopes);
    }
    tree.put("title", title);
    return tree;
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = content();
    tree.put("digest", digest());
    return tree;
  }

  static ResourceContract fromTree(String uri, TreeReader r) {
    ResourceContract resource = new ResourceContract(uri, r.string("router"), r.string("name"),
        r.string("title"), r.string("description"), r.string("mimeType"), r.bool("binary"),
        r.has("presenter") ? PresenterContract.fromTree(r.object("presenter")) : null,
        r.has("limits") ? r.longMap("limits") : Map.of(), FeatureLimits.fromTree(r),
        IconContract.fromTree(r), r.has("scopes") ? r.strings("scopes") : List.of());
    if (!r.string("digest").equals(resource.digest())) {
      throw new IllegalArgumentException("mcpfusion.lock: the digest of resource \"" + uri
          + "\" does not match its content (edited by hand or merged?); run the lock goal again");
    }
    return resource;
  }
}
