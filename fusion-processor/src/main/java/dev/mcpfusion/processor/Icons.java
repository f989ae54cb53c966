package dev.mcpfusion.processor;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.util.Elements;

/**
 * Reads and checks the {@code @Icon}s of a prompt or resource method (one, or several through
 * their {@code @Icons} container), in the order written.
 *
 * <p>What is refused is what a host cannot use: it fetches the image itself, so only an absolute
 * {@code https:} URL or an inline {@code data:image/…} URI is an icon, and a data URI is sent in
 * every list answer, so it is bounded.
 */
final class Icons {
  /** The longest data URI an icon may inline, in characters. */
  static final int MAX_DATA_URI = 32 * 1024;

  private static final Pattern SIZE = Pattern.compile("[1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any");
  private static final Pattern MIME = Pattern.compile("image/[a-z0-9][a-z0-9.+-]*");

  /** One icon as written: theme is {@code ""}, {@code "light"} or {@code "dark"}. */
  record Model(String src, String mimeType, List<String> sizes, String theme) {}

  private Icons() {}

  /**
   * The method's icons; each problem is reported on its attribute and the icon is left out, so
   * the returned list holds only icons that passed (the step stops generating on any error).
   */
  static List<Model> read(Elements elements, Reporter reporter, ExecutableElement method,
      String where) {
    List<AnnotationMirror> mirrors = Mirrors.repeated(elements, method, Props.ANN + "Icon", Props.ANN + "Icons");
    List<Model> out = new ArrayList<>();
    for (AnnotationMirror icon : mirrors) {
      Model m = check(elements, reporter, method, where, icon);
      if (m != null) {
        out.add(m);
      }
    }
    return out;
  }

  private static Model check(Elements elements, Reporter reporter, ExecutableElement method,
      String where, AnnotationMirror icon) {
    String src = Mirrors.string(elements, icon, "src");
    String problem = srcProblem(src);
    if (problem != null) {
      reporter.reportOn(Diagnostic.INVALID_ICON, method, icon, Mirrors.explicitValue(icon, "src"),
          where, "src", shorten(src), problem,
          "Use an absolute https: URL (https://example.com/icon-48.png) or a data:image/... URI"
              + " under " + MAX_DATA_URI / 1024 + " KiB.");
      return null;
    }
    String mimeType = Mirrors.string(elements, icon, "mimeType");
    if (!mimeType.isEmpty() && !MIME.matcher(mimeType).matches()) {
      reporter.reportOn(Diagnostic.INVALID_ICON, method, icon,
          Mirrors.explicitValue(icon, "mimeType"), where, "mimeType", mimeType,
          "an icon's MIME type is an image type.",
          "Use mimeType = \"image/png\", \"image/svg+xml\" (or another image/...), or leave it"
              + " out.");
      return null;
    }
    List<String> sizes = Mirrors.strings(elements, icon, "sizes");
    for (String size : sizes) {
      if (!SIZE.matcher(size).matches()) {
        reporter.reportOn(Diagnostic.INVALID_ICON, method, icon,
            Mirrors.explicitValue(icon, "sizes"), where, "sizes", size,
            "a size is WIDTHxHEIGHT in pixels or \"any\".",
            "Use sizes = \"48x48\" (or \"any\" for a scalable image).");
        return null;
      }
    }
    String theme = Mirrors.enumConstant(icon, "theme", "ANY");
    return new Model(src, mimeType, List.copyOf(sizes),
        theme.equals("ANY") ? "" : theme.toLowerCase(Locale.ROOT));
  }

  /** Why {@code src} is not an icon a host can fetch, or {@code null} when it is. */
  static String srcProblem(String src) {
    if (src.regionMatches(true, 0, "data:", 0, 5)) {
      if (!src.regionMatches(true, 5, "image/", 0, 6)) {
        return "a data: icon must hold an image (data:image/...).";
      }
      if (src.length() > MAX_DATA_URI) {
        return "the data URI is " + src.length() + " characters, over the " + MAX_DATA_URI
            + " an icon may inline: it is sent in every list answer.";
      }
      return src.indexOf(',') < 0 ? "a data: URI needs a ',' before its data." : null;
    }
    URI uri;
    try {
      uri = new URI(src);
    } catch (URISyntaxException e) {
      return "it is not a URI (" + e.getReason() + ").";
    }
    if (!"https".equalsIgnoreCase(uri.getScheme())) {
      return uri.getScheme() == null
          ? "it is relative, and a host fetches the icon without knowing this server's address."
          : "the host fetches it over " + uri.getScheme() + ":, and only https: (or an inline"
              + " data: image) is safe to fetch.";
    }
    return uri.getHost() == null ? "the https: URL has no host." : null;
  }

  private static String shorten(String src) {
    return src.length() <= 60 ? src : src.substring(0, 57) + "...";
  }
}
