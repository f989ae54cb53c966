package dev.mcpfusion.core.lock;

import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.util.Map;
import java.util.TreeMap;

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
 */
public record ResourceContract(String uri, String router, String name, String title,
    String description, String mimeType, boolean binary, PresenterContract presenter) {

  static ResourceContract of(String router, ResourceDescriptor d) {
    return new ResourceContract(d.uri(), router, d.name(), d.title(), d.description(), d.mimeType(),
        d.binary(), d.presenter() == null ? null : PresenterContract.of(d.presenter()));
  }

  /** {@code sha256:} of this resource's canonical JSON (everything but the digest itself). */
  public String digest() {
    return Canonical.digest(content());
  }

  private Map<String, Object> content() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("binary", binary);
    tree.put("description", description);
    tree.put("mimeType", mimeType);
    tree.put("name", name);
    if (presenter != null) {
      tree.put("presenter", presenter.toTree());
    }
    tree.put("router", router);
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
        r.has("presenter") ? PresenterContract.fromTree(r.object("presenter")) : null);
    if (!r.string("digest").equals(resource.digest())) {
      throw new IllegalArgumentException("mcpfusion.lock: the digest of resource \"" + uri
          + "\" does not match its content (edited by hand or merged?); run the lock goal again");
    }
    return resource;
  }
}
