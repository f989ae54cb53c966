package dev.mcpfusion.processor;

import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * A validated {@code @Router}: everything {@link RouterWriter} needs, immutable, built only when
 * the router and every action passed validation.
 */
record RouterModel(TypeElement type, String name, String description, TypeElement common,
    List<Inputs.Site> commonFields, List<ActionModel> actions, List<TypeMirror> middleware,
    List<String> scopes, List<ProxyValidation.ProxyModel> proxies) {

  RouterModel {
    proxies = List.copyOf(proxies);
    scopes = List.copyOf(scopes);
    commonFields = List.copyOf(commonFields);
    actions = List.copyOf(actions);
    middleware = List.copyOf(middleware);
  }

  /**
   * Where a parameter's value comes from: one input field, context, the common record, or the
   * whole input described by an {@code @InputSchema} document.
   */
  enum ParamKind { JSON, CONTEXT, COMMON, SCHEMA }

  /** One parameter of an action method; {@code site} only for {@link ParamKind#JSON}. */
  record Param(VariableElement element, ParamKind kind, Inputs.Site site) {}

  /** The analysed return type: shape, element kind, presenter view or value schema. */
  record Result(TypeElement view, String shape, String elementKind, String resultSchema) {}

  /**
   * One validated action; {@code inputSchema} is the compact JSON of its {@code @InputSchema}
   * document, or {@code null} when its parameters describe its input.
   */
  record ActionModel(ExecutableElement method, String name, String description, String verb,
      boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld,
      List<Param> params, Result result, String cachePolicy, List<String> invalidates,
      List<TypeMirror> middleware, boolean beanValidation, String inputSchema,
      List<String> scopes) {

    ActionModel {
      scopes = List.copyOf(scopes);
      params = List.copyOf(params);
      invalidates = List.copyOf(invalidates);
      middleware = List.copyOf(middleware);
    }

    TypeElement view() {
      return result.view();
    }

    String shape() {
      return result.shape();
    }

    String elementKind() {
      return result.elementKind();
    }

    String resultSchema() {
      return result.resultSchema();
    }
  }
}
