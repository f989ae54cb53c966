package dev.mcpfusion.processor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import dev.mcpfusion.processor.RouterModel.Result;

/**
 * What an action returns (for an async handler, what its {@code CompletionStage} completes with): the container shape (single, optional, collection, stream, array), the
 * element kind (model, view, map row, JSON tree) and the {@code presenter} that must fit it, or the
 * schema of a plain value that needs no presenter.
 */
final class ResultAnalysis {
  private static final List<String> JSON_NODES = List.of("tools.jackson.databind.JsonNode",
      "com.fasterxml.jackson.databind.JsonNode");
  private static final String STAGE = "java.util.concurrent.CompletionStage";
  private static final String FUTURE = "java.util.concurrent.CompletableFuture";

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final Views views;

  ResultAnalysis(Elements elements, Types types, Reporter reporter, Views views) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
    this.views = views;
  }

  /**
   * The result of {@code method}: its shape and element kind, checked against the verb's
   * {@code presenter}; {@code null} after reporting when it cannot be presented.
   */
  Result analyse(ExecutableElement method, AnnotationMirror verb, String verbName, String where) {
    TypeMirror r = method.getReturnType();
    if (assignable(r, STAGE)) {
      // An async handler: its value T is presented exactly as a blocking return of T would be.
      r = stageValue(r);
      if (r == null) {
        reporter.report(Diagnostic.ASYNC_RESULT_UNREADABLE, method, where,
            Views.display(method.getReturnType()));
        return null;
      }
    }
    TypeMirror presenterType = Mirrors.type(elements, verb, "presenter");
    TypeElement view = null;
    AnnotationValue presenterValue = Mirrors.explicitValue(verb, "presenter");
    if (presenterType != null && presenterType.getKind() == TypeKind.DECLARED) {
      TypeElement pe = (TypeElement) ((DeclaredType) presenterType).asElement();
      if (!views.isView(pe)) {
        reporter.reportOn(Diagnostic.NOT_A_PRESENTER, method, verb, presenterValue, where,
            Names.display(pe));
        return null;
      }
      view = pe;
    } else if (presenterType != null && presenterType.getKind() != TypeKind.VOID) {
      reporter.reportOn(Diagnostic.PRESENTER_NOT_A_VIEW, method, verb, presenterValue, where,
          presenterType);
      return null;
    }
    if (r.getKind() == TypeKind.VOID || isVoidBox(r)) {
      if (view != null) {
        reporter.reportOn(Diagnostic.PRESENTER_ON_VOID, method, verb, presenterValue, where,
            Names.display(view));
        return null;
      }
      return new Result(null, "VOID", "NONE", null);
    }
    // unwrap the container
    TypeMirror item = r;
    String shape = "SINGLE";
    if (r.getKind() == TypeKind.ARRAY) {
      shape = "ARRAY";
      item = ((ArrayType) r).getComponentType();
    } else if (r.getKind() == TypeKind.DECLARED && !isJsonNode(r)) {
      // A JsonNode is Iterable over its children, but it is one row.
      DeclaredType d = (DeclaredType) r;
      String qn = ((TypeElement) d.asElement()).getQualifiedName().toString();
      TypeMirror arg = d.getTypeArguments().size() == 1 ? Views.argument(r) : null;
      if (qn.equals(Scalar.OPTIONAL)) {
        shape = "OPTIONAL";
        item = arg;
      } else if (FieldsAndPages.isPage(r)) {
        shape = "PAGE";
        item = arg;
      } else if (qn.equals("java.util.stream.Stream")) {
        shape = "STREAM";
        item = arg;
      } else if (assignable(r, "java.util.Collection")) {
        shape = "COLLECTION";
        item = arg;
      } else if (assignable(r, "java.lang.Iterable")) {
        shape = "ITERABLE";
        item = arg;
      }
    }
    if (item == null) {
      reporter.report(view == null ? Diagnostic.RESULT_ELEMENT_UNREADABLE
          : Diagnostic.PRESENTED_ELEMENT_UNREADABLE, method, where, Views.display(r));
      return null;
    }
    if (view == null) {
      if (item.getKind() == TypeKind.DECLARED
          && views.isView((TypeElement) ((DeclaredType) item).asElement())) {
        return new Result((TypeElement) ((DeclaredType) item).asElement(), shape, "VIEW", null);
      }
      if (shape.equals("SINGLE")) {
        Map<String, Object> schema = valueSchema(r);
        if (schema != null) {
          return new Result(null, "VALUE", "NONE", JsonText.write(schema));
        }
      }
      reporter.report(Diagnostic.RESULT_NEEDS_PRESENTER, method, where, Views.display(r),
          Views.display(item),
          verbName);
      return null;
    }
    TypeMirror model = views.modelOf(view);
    String elementKind;
    if (model != null && item.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(item), types.erasure(model))) {
      elementKind = "MODEL";
    } else if (types.isSameType(types.erasure(item), types.erasure(view.asType()))) {
      elementKind = "VIEW";
    } else if (assignable(item, "java.util.Map")) {
      elementKind = "MAP";
    } else if (isJsonNode(item)) {
      elementKind = "TREE";
    } else {
      String modelName = model == null ? "?" : Views.display(model);
      reporter.reportOn(Diagnostic.PRESENTER_MODEL_MISMATCH, method, verb, presenterValue, where,
          Views.display(r), Names.display(view), modelName, Views.display(item));
      return null;
    }
    return new Result(view, shape, elementKind, null);
  }

  /**
   * The {@code T} of a {@code CompletionStage<T>} or {@code CompletableFuture<T>} result, or
   * {@code null} when it cannot be read: a raw or unbounded type, another implementation of
   * {@code CompletionStage} (its value type is not its own type argument), or a stage of a stage.
   */
  private TypeMirror stageValue(TypeMirror r) {
    String qn = ((TypeElement) ((DeclaredType) r).asElement()).getQualifiedName().toString();
    if (!qn.equals(STAGE) && !qn.equals(FUTURE)) {
      return null;
    }
    TypeMirror value = Views.argument(r);
    if (value == null || (value.getKind() != TypeKind.DECLARED && value.getKind() != TypeKind.ARRAY)
        || assignable(value, STAGE)) {
      return null;
    }
    return value;
  }

  /** Whether {@code t} is {@code java.lang.Void}: a stage that completes with no value. */
  private static boolean isVoidBox(TypeMirror t) {
    return t.getKind() == TypeKind.DECLARED && ((TypeElement) ((DeclaredType) t).asElement())
        .getQualifiedName().contentEquals("java.lang.Void");
  }

  private boolean assignable(TypeMirror t, String qualifiedName) {
    TypeElement target = elements.getTypeElement(qualifiedName);
    return target != null && t.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(t), types.erasure(target.asType()));
  }

  private boolean isJsonNode(TypeMirror t) {
    for (String name : JSON_NODES) {
      if (assignable(t, name)) {
        return true;
      }
    }
    return false;
  }

  /** The schema of a result that needs no presenter, or {@code null}. */
  private Map<String, Object> valueSchema(TypeMirror r) {
    Map<String, Object> s = new LinkedHashMap<>();
    TypeMirror t = r;
    if (t.getKind() == TypeKind.DECLARED) {
      try {
        t = types.unboxedType(t);
      } catch (IllegalArgumentException notBoxed) {
        t = r;
      }
    }
    switch (t.getKind()) {
      case BOOLEAN:
        s.put("type", "boolean");
        return s;
      case BYTE:
      case SHORT:
      case INT:
      case LONG:
        s.put("type", "integer");
        return s;
      case FLOAT:
      case DOUBLE:
        s.put("type", "number");
        return s;
      case CHAR:
        s.put("type", "string");
        return s;
      case DECLARED:
        TypeElement e = (TypeElement) ((DeclaredType) t).asElement();
        if (e.getQualifiedName().contentEquals("java.lang.String")) {
          s.put("type", "string");
          return s;
        }
        if (e.getKind() == ElementKind.ENUM) {
          s.put("type", "string");
          s.put("enum", Views.enumConstants(e));
          return s;
        }
        return null;
      default:
        return null;
    }
  }
}
