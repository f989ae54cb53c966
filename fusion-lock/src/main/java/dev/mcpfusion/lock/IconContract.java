package dev.mcpfusion.lock;

import dev.mcpfusion.core.spi.IconDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One icon of a prompt or resource as the lockfile records it; each optional key only when set,
 * as on the wire.
 *
 * @param src the image URL or data URI
 * @param mimeType the MIME type, or {@code ""}
 * @param sizes the sizes, in order
 * @param theme {@code "light"}, {@code "dark"}, or {@code ""}
 */
public record IconContract(String src, String mimeType, List<String> sizes, String theme) {
  public IconContract {
    sizes = List.copyOf(sizes);
  }

  static List<IconContract> of(List<IconDescriptor> icons) {
    List<IconContract> out = new ArrayList<>(icons.size());
    for (IconDescriptor i : icons) {
      out.add(new IconContract(i.src(), i.mimeType(), i.sizes(), i.theme()));
    }
    return out;
  }

  /** The icons' trees, in order (the order is the client's preference). */
  static List<Object> toTrees(List<IconContract> icons) {
    List<Object> out = new ArrayList<>(icons.size());
    for (IconContract i : icons) {
      Map<String, Object> tree = new TreeMap<>();
      if (!i.mimeType.isEmpty()) {
        tree.put("mimeType", i.mimeType);
      }
      if (!i.sizes.isEmpty()) {
        tree.put("sizes", i.sizes);
      }
      tree.put("src", i.src);
      if (!i.theme.isEmpty()) {
        tree.put("theme", i.theme);
      }
      out.add(tree);
    }
    return out;
  }

  /** The icons under {@code "icons"}, or none when the member records none. */
  static List<IconContract> fromTree(TreeReader r) {
    if (!r.has("icons")) {
      return List.of();
    }
    List<IconContract> out = new ArrayList<>();
    for (TreeReader i : r.objectList("icons")) {
      out.add(new IconContract(i.string("src"), i.has("mimeType") ? i.string("mimeType") : "",
          i.has("sizes") ? i.strings("sizes") : List.of(), i.has("theme") ? i.string("theme") : ""));
    }
    return out;
  }
}
