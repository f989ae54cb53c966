package dev.mcpfusion.core.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the builders of {@link PromptDescriptor} and {@link ResourceDescriptor} share: the Java
 * method a member is served by, its MCP title, icons and description, the parameters filled from
 * context, its presenter, its method-level {@code @Use} classes and the OAuth scopes a caller
 * needs to see and use it.
 *
 * @param <B> the concrete builder, which every call returns
 */
public abstract class MemberBuilder<B extends MemberBuilder<B>> {
  String methodName;
  String title = "";
  final List<IconDescriptor> icons = new ArrayList<>();
  String description;
  final List<ContextParameter> contextParameters = new ArrayList<>();
  PresenterBinding<?, ?> presenter;
  List<Class<?>> middleware = List.of();
  List<String> scopes = List.of();

  MemberBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** Adds a parameter filled from context, after those added before. */
  public B context(String parameter, Class<?> type) {
    this.contextParameters.add(new ContextParameter(parameter, type));
    return self();
  }

  /** The presenter ({@code null}: none). */
  public B presenter(PresenterBinding<?, ?> presenter) {
    this.presenter = presenter;
    return self();
  }

  /** The method-level {@code @Use} classes, in order. */
  public B middleware(Class<?>... classes) {
    this.middleware = Arrays.asList(classes);
    return self();
  }

  /**
   * The OAuth scopes a caller needs to see and use the member ({@code @Scopes} of its class and
   * its method).
   */
  public B scopes(String... scopes) {
    this.scopes = List.of(scopes);
    return self();
  }

  /** The Java method name (required). */
  public B method(String methodName) {
    this.methodName = methodName;
    return self();
  }

  /** The MCP title. */
  public B title(String title) {
    this.title = Objects.requireNonNull(title, "title");
    return self();
  }

  /** Adds an icon, after those added before. */
  public B icon(IconDescriptor icon) {
    this.icons.add(Objects.requireNonNull(icon, "icon"));
    return self();
  }

  /** The resolved description (required, never empty). */
  public B description(String description) {
    this.description = description;
    return self();
  }

  /**
   * The first required call missing before {@code build()} ({@code "method(...)"},
   * {@code "description(...)"}), or {@code null}.
   */
  String missing() {
    return methodName == null ? "method(...)" : description == null ? "description(...)" : null;
  }
}
