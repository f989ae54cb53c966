package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * Writes {@code V_Presenter} for a {@link PresenterStep.ViewModel}: {@code fromModel},
 * {@code fromMap}, {@code toTree}, {@code appendJson} (by {@link AppendJsonWriter}), the output
 * schema, field names, static rules, the agent limit, and (by {@link ViewMethodsWriter}) dynamic
 * rules, suggestions and UI blocks.
 */
final class PresenterWriter {
  private final Types types;
  private final Filer filer;
  private final Reporter reporter;

  PresenterWriter(Types types, Filer filer, Reporter reporter) {
    this.types = types;
    this.filer = filer;
    this.reporter = reporter;
  }

  /** Writes {@code V_Presenter} for a validated view. */
  void write(PresenterStep.ViewModel v) {
    TypeElement view = v.view();
    List<Views.Component> components = v.components();
    TypeMirror modelType = v.modelType();
    TypeName model = Sources.plain(types.erasure(modelType));
    ClassName viewName = ClassName.get(view);
    ClassName self = PresenterStep.presenterName(view);
    ParameterizedTypeName mapOfWildcard = ParameterizedTypeName.get(ClassName.get(Map.class),
        ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
    ParameterizedTypeName treeType = ParameterizedTypeName.get(Map.class, String.class, Object.class);
    ParameterizedTypeName listOfString = ParameterizedTypeName.get(List.class, String.class);

    String schema = v.outputSchema();
    List<String> rules = v.staticRules();
    long limit = v.agentLimit();

    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(view)
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The presenter of {@link $T}: strip-mode view of {@link $T}.\n", viewName, model)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(ParameterizedTypeName.get(Sources.spi("PresenterBinding"), model, viewName));
    type.addField(FieldSpec.builder(self, "INSTANCE", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .initializer("new $T()", self).build());
    type.addField(FieldSpec.builder(String.class, "OUTPUT_SCHEMA", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer("$S", schema).build());
    type.addField(FieldSpec.builder(listOfString, "FIELD_NAMES", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer(listOf(components.stream().map(c -> c.view.name).toList())).build());
    type.addField(FieldSpec.builder(listOfString, "STATIC_RULES", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer(listOf(rules)).build());
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    type.addMethod(override("spiVersion", TypeName.INT)
        .addStatement("return $L", PresenterStep.SPI_VERSION).build());
    type.addMethod(override("modelType", ParameterizedTypeName.get(ClassName.get(Class.class), model))
        .addStatement("return $T.class", model).build());
    type.addMethod(override("viewType", ParameterizedTypeName.get(ClassName.get(Class.class), viewName))
        .addStatement("return $T.class", viewName).build());

    // fromModel
    MethodSpec.Builder fromModel = override("fromModel", viewName).addParameter(model, "model");
    fromModel.beginControlFlow("if (model == null)").addStatement("return null").endControlFlow();
    List<String> args = new ArrayList<>();
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String local = "c" + i;
      args.add(local);
      TypeName vt = Sources.plain(c.view.type);
      CodeBlock read = CodeBlock.of("model.$N()", c.model.accessor);
      Views.Out o = c.out;
      switch (o.kind) {
        case LIST:
        case SET: {
          String m = "m" + i;
          fromModel.addStatement("$T $N = $L", Sources.plain(c.model.type), m, read);
          fromModel.addStatement("$T $N = null", vt, local);
          fromModel.beginControlFlow("if ($N != null)", m);
          fromModel.addStatement("$N = new $T<>($N.size())", local,
              o.kind == Views.Out.Kind.SET ? LinkedHashSet.class : ArrayList.class, m);
          fromModel.beginControlFlow("for (var e : $N)", m);
          fromModel.addStatement("$N.add($L)", local, fromModelElement(o.element, "e"));
          fromModel.endControlFlow().endControlFlow();
          break;
        }
        case OPTIONAL: {
          String m = "m" + i;
          fromModel.addStatement("$T $N = $L", Sources.plain(c.model.type), m, read);
          if (o.element.kind == Views.Out.Kind.VIEW) {
            fromModel.addStatement("$T $N = $N == null ? $T.empty() : $N.map(e -> $L)", vt, local, m,
                java.util.Optional.class, m, fromModelElement(o.element, "e"));
          } else {
            fromModel.addStatement("$T $N = $N == null ? $T.empty() : $N", vt, local, m,
                java.util.Optional.class, m);
          }
          break;
        }
        default:
          fromModel.addStatement("$T $N = $L", vt, local, fromModelElement(o, read.toString()));
      }
    }
    fromModel.addStatement("return new $T($L)", viewName, String.join(", ", args));
    type.addMethod(fromModel.build());

    // fromMap
    MethodSpec.Builder fromMap = override("fromMap", viewName).addParameter(mapOfWildcard, "row");
    fromMap.beginControlFlow("if (row == null)").addStatement("return null").endControlFlow();
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String local = "c" + i;
      TypeName vt = Sources.plain(c.view.type);
      String key = c.view.name;
      CodeBlock raw = CodeBlock.of("row.get($S)", key);
      Views.Out o = c.out;
      switch (o.kind) {
        case LIST:
        case SET: {
          String r = "r" + i;
          fromMap.addStatement("$T $N = $T.asList($L, $S)", ParameterizedTypeName.get(
              ClassName.get(List.class), WildcardTypeName.subtypeOf(Object.class)), r,
              Sources.spi("Values"), raw, key);
          fromMap.addStatement("$T $N = null", vt, local);
          fromMap.beginControlFlow("if ($N != null)", r);
          fromMap.addStatement("$N = new $T<>($N.size())", local,
              o.kind == Views.Out.Kind.SET ? LinkedHashSet.class : ArrayList.class, r);
          fromMap.beginControlFlow("for (Object e : $N)", r);
          fromMap.addStatement("$N.add($L)", local, fromMapElement(o.element, CodeBlock.of("e"), key));
          fromMap.endControlFlow().endControlFlow();
          break;
        }
        case OPTIONAL:
          fromMap.addStatement("$T $N = $T.ofNullable($L)", vt, local, java.util.Optional.class,
              fromMapElement(o.element, raw, key));
          break;
        default:
          CodeBlock value = fromMapElement(o, raw, key);
          if (o.primitive) {
            value = CodeBlock.of("$T.require($L, $S)", Sources.spi("Values"), value, key);
          }
          fromMap.addStatement("$T $N = $L", vt, local, value);
      }
    }
    fromMap.addStatement("return new $T($L)", viewName, String.join(", ", args));
    type.addMethod(fromMap.build());

    // toTree
    MethodSpec.Builder toTree = override("toTree", treeType).addParameter(viewName, "view");
    // Sized for its components (load factor 0.75), so filling it never grows the table.
    toTree.addStatement("$T tree = new $T<>($L)", treeType, LinkedHashMap.class,
        Math.max(1, (components.size() * 4 + 2) / 3));
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String t = "t" + i;
      Views.Out o = c.out;
      toTree.addStatement("$T $N = view.$N()", Sources.plain(c.view.type), t, c.view.name);
      if (!o.primitive && !c.nullable) {
        // The output schema promises a value; fail here, naming the component, rather than let
        // the SDK reject the whole result with its own text.
        toTree.beginControlFlow("if ($N == null)", t);
        toTree.addStatement("throw $N($S)", AppendJsonWriter.NULL_COMPONENT, c.view.name);
        toTree.endControlFlow();
      }
      switch (o.kind) {
        case LIST:
        case SET: {
          String l = "l" + i;
          TypeName listType = ParameterizedTypeName.get(List.class, Object.class);
          if (c.nullable) {
            toTree.addStatement("$T $N = null", listType, l);
            toTree.beginControlFlow("if ($N != null)", t);
            toTree.addStatement("$N = new $T<>($N.size())", l, ArrayList.class, t);
          } else {
            toTree.addStatement("$T $N = new $T<>($N.size())", listType, l, ArrayList.class, t);
          }
          toTree.beginControlFlow("for (var e : $N)", t);
          toTree.addStatement("$N.add($L)", l, treeElement(o.element, "e", true));
          toTree.endControlFlow();
          if (c.nullable) {
            toTree.endControlFlow();
          }
          toTree.addStatement("tree.put($S, $N)", c.view.name, l);
          break;
        }
        case OPTIONAL:
          toTree.addStatement("tree.put($S, $L$N.isEmpty() ? null : $L)", c.view.name,
              c.nullable ? t + " == null || " : "", t, treeElement(o.element, t + ".get()", false));
          break;
        default:
          // A component that is not @Nullable was checked above: no second null test.
          toTree.addStatement("tree.put($S, $L)", c.view.name,
              treeElement(o, t, !o.primitive && c.nullable));
      }
    }
    toTree.addStatement("return tree");
    type.addMethod(toTree.build());
    type.addMethod(AppendJsonWriter.appendJson(view, viewName, components));
    if (AppendJsonWriter.checksNull(components)) {
      type.addMethod(AppendJsonWriter.nullComponent(view));
    }

    type.addMethod(override("outputSchemaJson", ClassName.get(String.class))
        .addStatement("return OUTPUT_SCHEMA").build());
    type.addMethod(override("fieldNames", listOfString).addStatement("return FIELD_NAMES").build());
    type.addMethod(override("staticRules", listOfString).addStatement("return STATIC_RULES").build());

    ViewMethodsWriter.addTo(type, viewName, v.methods());
    type.addMethod(override("agentLimit", TypeName.INT).addStatement("return $L", limit).build());
    String format = Mirrors.enumConstant(Mirrors.find(view, Views.PRESENTER), "format", "JSON");
    if (!format.equals("JSON")) {
      ClassName formatType = ClassName.get("dev.mcpfusion.annotation", "Format");
      type.addMethod(override("format", formatType).addStatement("return $T.$L", formatType, format)
          .build());
    }
    if (FieldsAndPages.selectable(view)) {
      type.addMethod(override("selectable", TypeName.BOOLEAN).addStatement("return true").build());
    }
    ReferenceList.addTo(type, v.references(), v.referencesFrom());

    String error = Sources.write(filer, self.packageName(), type.build(), view);
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, view, PresenterStep.presenterName(view), error);
    }
  }

  static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  static CodeBlock listOf(List<String> values) {
    CodeBlock.Builder b = CodeBlock.builder().add("$T.of(", List.class);
    for (int i = 0; i < values.size(); i++) {
      b.add(i == 0 ? "$S" : ", $S", values.get(i));
    }
    return b.add(")").build();
  }

  private CodeBlock fromModelElement(Views.Out o, String expr) {
    if (o.kind == Views.Out.Kind.VIEW) {
      return CodeBlock.of("$T.INSTANCE.fromModel($L)", PresenterStep.presenterName(o.type), expr);
    }
    return CodeBlock.of("$L", expr);
  }

  private CodeBlock fromMapElement(Views.Out o, CodeBlock raw, String key) {
    ClassName values = Sources.spi("Values");
    switch (o.kind) {
      case SCALAR:
        return CodeBlock.of("$T.$N($L, $S)", values, o.scalar.valuesMethod, raw, key);
      case ENUM:
        return CodeBlock.of("$T.asEnum($L, $T.class, $S)", values, raw, ClassName.get(o.type), key);
      case VIEW:
        return CodeBlock.of("$T.INSTANCE.fromMap($T.asMap($L, $S))", PresenterStep.presenterName(o.type), values,
            raw, key);
      default:
        throw new IllegalStateException(o.kind.toString());
    }
  }

  private CodeBlock treeElement(Views.Out o, String var, boolean nullSafe) {
    CodeBlock value;
    switch (o.kind) {
      case SCALAR:
        if (o.scalar.jsonType.equals("string") && o.scalar != Scalar.STRING) {
          value = CodeBlock.of("$L.toString()", var);
          break;
        }
        return CodeBlock.of("$L", var);
      case ENUM:
        value = CodeBlock.of("$L.name()", var);
        break;
      case VIEW:
        value = CodeBlock.of("$T.INSTANCE.toTree($L)", PresenterStep.presenterName(o.type), var);
        break;
      default:
        throw new IllegalStateException(o.kind.toString());
    }
    return nullSafe ? CodeBlock.of("$L == null ? null : $L", var, value) : value;
  }
}
