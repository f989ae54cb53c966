package dev.mcpfusion.core;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One content block of a tool result besides the text the presenter writes: an image, audio, an
 * embedded resource or a link to a resource. A handler adds blocks with
 * {@link RequestContext#attach}; they follow the presenter's text in the result's {@code content},
 * in the order attached, in both protocol eras.
 *
 * <pre>{@code
 * @Query(description = "Render the chart")
 * public String chart(RequestContext request) {
 *   request.attach(Content.image(png, "image/png"));
 *   return "Revenue by month";
 * }
 * }</pre>
 *
 * <p>Immutable.
 */
public final class Content {
  private final Map<String, Object> wire;

  private Content(Map<String, Object> wire) {
    this.wire = java.util.Collections.unmodifiableMap(wire);
  }

  /** A text block. */
  public static Content text(String text) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "text");
    m.put("text", Objects.requireNonNull(text, "text"));
    return new Content(m);
  }

  /** An image from its bytes, sent base64-encoded; {@code mimeType} such as {@code image/png}. */
  public static Content image(byte[] data, String mimeType) {
    return image(Base64.getEncoder().encodeToString(Objects.requireNonNull(data, "data")), mimeType);
  }

  /** An image already base64-encoded. */
  public static Content image(String base64, String mimeType) {
    return binary("image", base64, mimeType);
  }

  /** Audio from its bytes, sent base64-encoded; {@code mimeType} such as {@code audio/wav}. */
  public static Content audio(byte[] data, String mimeType) {
    return audio(Base64.getEncoder().encodeToString(Objects.requireNonNull(data, "data")), mimeType);
  }

  /** Audio already base64-encoded. */
  public static Content audio(String base64, String mimeType) {
    return binary("audio", base64, mimeType);
  }

  /** An embedded text resource: its {@code uri}, {@code mimeType} and content. */
  public static Content resource(String uri, String mimeType, String text) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("uri", uri(uri));
    resource.put("mimeType", mimeType(mimeType));
    resource.put("text", Objects.requireNonNull(text, "text"));
    return embedded(resource);
  }

  /** An embedded binary resource: its {@code uri}, {@code mimeType} and bytes (sent base64-encoded). */
  public static Content resource(String uri, String mimeType, byte[] data) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("uri", uri(uri));
    resource.put("mimeType", mimeType(mimeType));
    resource.put("blob", Base64.getEncoder().encodeToString(Objects.requireNonNull(data, "data")));
    return embedded(resource);
  }

  /**
   * A link to a resource the client may read with {@code resources/read} (not its content).
   *
   * @param description shown to the model; may be {@code null}
   * @param mimeType may be {@code null}
   */
  public static Content resourceLink(String uri, String name, String description, String mimeType) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "resource_link");
    m.put("uri", uri(uri));
    m.put("name", Objects.requireNonNull(name, "name"));
    if (description != null) {
      m.put("description", description);
    }
    if (mimeType != null) {
      m.put("mimeType", mimeType);
    }
    return new Content(m);
  }

  private static Content binary(String type, String base64, String mimeType) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", type);
    m.put("data", Objects.requireNonNull(base64, "data"));
    m.put("mimeType", mimeType(mimeType));
    return new Content(m);
  }

  private static Content embedded(Map<String, Object> resource) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", "resource");
    m.put("resource", java.util.Collections.unmodifiableMap(resource));
    return new Content(m);
  }

  private static String uri(String uri) {
    if (uri == null || uri.isBlank()) {
      throw new IllegalArgumentException("A resource needs a uri, such as \"file:///report.pdf\"");
    }
    return uri;
  }

  private static String mimeType(String mimeType) {
    if (mimeType == null || mimeType.indexOf('/') < 1) {
      throw new IllegalArgumentException(
          "A content block needs a MIME type such as \"image/png\"; was " + mimeType);
    }
    return mimeType;
  }

  /** The block's {@code type}: {@code text}, {@code image}, {@code audio}, {@code resource} or {@code resource_link}. */
  public String type() {
    return (String) wire.get("type");
  }

  /** The block as the protocol writes it: a plain JSON tree (maps, lists, strings). */
  public Map<String, Object> toWire() {
    return wire;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Content that && wire.equals(that.wire);
  }

  @Override
  public int hashCode() {
    return wire.hashCode();
  }

  @Override
  public String toString() {
    return "Content" + wire;
  }
}
