package dev.mcpfusion.core.spi;

import java.util.List;
import java.util.Objects;

/**
 * One {@code @Icon} of a prompt or resource, as the processor checked it: what {@code prompts/list},
 * {@code resources/list} and {@code resources/templates/list} send in {@code icons}.
 *
 * @param src an absolute {@code https:} URL or a {@code data:image/…} URI
 * @param mimeType the image's MIME type, or {@code ""} (not sent)
 * @param sizes {@code "48x48"} or {@code "any"} entries; empty is not sent
 * @param theme {@code "light"}, {@code "dark"}, or {@code ""} (not sent)
 */
public record IconDescriptor(String src, String mimeType, List<String> sizes, String theme) {
  public IconDescriptor {
    Objects.requireNonNull(src, "src");
    Objects.requireNonNull(mimeType, "mimeType");
    sizes = List.copyOf(sizes);
    Objects.requireNonNull(theme, "theme");
  }
}
