package dev.mcpfusion.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.processing.Filer;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

import dev.mcpfusion.processor.RouterModel.ActionModel;
import dev.mcpfusion.processor.RouterModel.Param;
import dev.mcpfusion.processor.RouterModel.ParamKind;

/**
 * Writes {@code X_Fusion} for a {@link RouterModel}: the {@code RouterDescriptor} with every
 * {@code ActionDescriptor} fact resolved, {@code decode} and {@code invoke} as {@code switch}es over
 * the actions, and the decode helpers {@link DecodeWriter} collects.
 */
final class RouterWriter {
  private static final ClassName ARGS = Sources.spi("Args");
  private static final ClassName CHECKS = Sources.spi("Checks");
  private static final ClassName PROBLEMS = Sources.spi("Problems");
  private static final TypeName MAP_OF_ANY = ParameterizedTypeName.get(ClassName.get(Map.class),
      ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName LIST_OF_ANY = ParameterizedTypeName.get(ClassName.get(List.class),
      WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName CLASS_LIST = ParameterizedTypeName.get(ClassName.get(List.class),
      ParameterizedTypeName.get(ClassName.get(Class.class), WildcardTypeName.subtypeOf(Object.class)));

  private final Types types;
  private final Filer filer;
  private final Reporter reporter;

  RouterWriter(Types types, Filer filer, Reporter reporter) {
    this.types = types;
    this.filer = filer;
    this.reporter = reporter;
  }

  /** Writes {@code X_Fusion} for a validated router. */
  void write(RouterModel r) {
    ClassName router = ClassName.get(r.type());
    ClassName self = RouterStep.fusionName(r.type());
    DecodeWriter gen = new DecodeWriter(types);
    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(r.type())
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The dispatcher and descriptor of {@link $T}: router {@code $L}.\n", router,
            r.name())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(Sources.spi("GeneratedRouter"));
    type.addField(FieldSpec.builder(Sources.spi("RouterDescriptor"), "DESCRIPTOR", Modifier.PRIVATE,
        Modifier.STATIC, Modifier.FINAL).initializer("buildDescriptor()").build());
    type.addField(router, "target", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE)
        .addParameter(router, "target")
        .addStatement("this.target = $T.requireNonNull(target, $S)", Objects.class, "target").build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addJavadoc("Binds an instance of {@link $T}, without reflection.\n", router)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("GeneratedRouter"))
        .addParameter(router, "target")
        .addStatement("return new $T(target)", self).build());
    type.addMethod(override("spiVersion", TypeName.INT)
        .addStatement("return $L", PresenterStep.SPI_VERSION).build());
    type.addMethod(override("descriptor", Sources.spi("RouterDescriptor"))
        .addStatement("return DESCRIPTOR").build());
    type.addMethod(MethodSpec.methodBuilder("describe")
        .addJavadoc("The descriptor without an instance of {@link $T}: for build tools such as the\n"
            + "capability lockfile, which must never run user code.\n", router)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("RouterDescriptor"))
        .addStatement("return DESCRIPTOR").build());

    // decode
    MethodSpec.Builder decode = override("decode", ArrayTypeName.of(Object.class))
        .addParameter(TypeName.INT, "action")
        .addParameter(ParameterizedTypeName.get(ClassName.get(Map.class), ClassName.get(String.class),
            WildcardTypeName.subtypeOf(Object.class)), "arguments")
        .addParameter(PROBLEMS, "problems");
    decode.addStatement("$T args = arguments == null ? $T.of() : arguments", MAP_OF_ANY, Map.class);
    decode.beginControlFlow("switch (action)");
    for (int i = 0; i < r.actions().size(); i++) {
      decode.addCode("case $L:\n", i).addCode("$>").addStatement("return decode_$L(args, problems)",
          r.actions().get(i).name()).addCode("$<");
    }
    decode.addCode("default:\n$>").addStatement("throw new $T($S + action)",
        IllegalArgumentException.class, "No action number in " + r.name() + ": ").addCode("$<");
    decode.endControlFlow();
    type.addMethod(decode.build());

    // invoke
    MethodSpec.Builder invoke = override("invoke", ClassName.OBJECT)
        .addAnnotation(com.palantir.javapoet.AnnotationSpec.builder(SuppressWarnings.class)
            .addMember("value", "$S", "unchecked").build())
        .addParameter(TypeName.INT, "action")
        .addParameter(ArrayTypeName.of(Object.class), "a")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    invoke.beginControlFlow("switch (action)");
    for (int i = 0; i < r.actions().size(); i++) {
      ActionModel a = r.actions().get(i);
      CodeBlock.Builder call = CodeBlock.builder();
      if (a.method().getModifiers().contains(Modifier.STATIC)) {
        call.add("$T.$N(", router, a.method().getSimpleName().toString());
      } else {
        call.add("target.$N(", a.method().getSimpleName().toString());
      }
      for (int j = 0; j < a.params().size(); j++) {
        Param p = a.params().get(j);
        if (j > 0) {
          call.add(", ");
        }
        TypeMirror t = p.element().asType();
        if (p.kind() == ParamKind.CONTEXT) {
          TypeName erased = Sources.plain(types.erasure(t));
          TypeName full = Sources.plain(t);
          if (full.equals(erased)) {
            call.add("ctx.get($T.class)", erased);
          } else {
            call.add("($T) ctx.get($T.class)", full, erased);
          }
        } else {
          call.add("($T) a[$L]", Sources.plain(t).box(), j);
        }
      }
      call.add(")");
      invoke.addCode("case $L:\n$>", i);
      if (a.method().getReturnType().getKind() == TypeKind.VOID) {
        invoke.addStatement("$L", call.build()).addStatement("return null");
      } else {
        invoke.addStatement("return $L", call.build());
      }
      invoke.addCode("$<");
    }
    invoke.addCode("default:\n$>").addStatement("throw new $T($S + action)",
        IllegalArgumentException.class, "No action number in " + r.name() + ": ").addCode("$<");
    invoke.endControlFlow();
    type.addMethod(invoke.build());

    type.addMethod(descriptorMethod(r));
    for (ActionModel a : r.actions()) {
      type.addMethod(gen.decodeAction(r, a));
    }
    type.addMethod(MethodSpec.methodBuilder("fields")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ParameterizedTypeName.get(ClassName.get(List.class), Sources.spi("FieldDescriptor")))
        .addParameter(ParameterizedTypeName.get(ClassName.get(List.class),
            Sources.spi("FieldDescriptor")), "common")
        .addParameter(ArrayTypeName.of(Sources.spi("FieldDescriptor")), "own")
        .varargs(true)
        .addStatement("$T<$T> all = new $T<>(common)", List.class, Sources.spi("FieldDescriptor"),
            ArrayList.class)
        .addStatement("all.addAll($T.asList(own))", java.util.Arrays.class)
        .addStatement("return all")
        .build());
    for (MethodSpec helper : gen.helpers.values()) {
      type.addMethod(helper);
    }
    for (FieldSpec f : gen.patternFields) {
      type.addField(f);
    }
    String error = Sources.write(filer, self.packageName(), type.build(), r.type());
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, r.type(), self, error);
    }
  }

  private static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  private MethodSpec descriptorMethod(RouterModel r) {
    ClassName fd = Sources.spi("FieldDescriptor");
    MethodSpec.Builder m = MethodSpec.methodBuilder("buildDescriptor")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Sources.spi("RouterDescriptor"));
    CodeBlock.Builder common = CodeBlock.builder().add("$T.of(", List.class);
    for (int i = 0; i < r.commonFields().size(); i++) {
      common.add(i == 0 ? "\n$>$>$L" : ",\n$L", field(r.commonFields().get(i), true));
      if (i == r.commonFields().size() - 1) {
        common.add("$<$<");
      }
    }
    common.add(")");
    m.addStatement("$T<$T> common = $L", List.class, fd, common.build());
    m.addStatement("$T<$T> actions = new $T<>()", List.class, Sources.spi("ActionDescriptor"),
        ArrayList.class);
    for (ActionModel a : r.actions()) {
      CodeBlock.Builder fields = CodeBlock.builder().add("fields(common");
      List<CodeBlock> contexts = new ArrayList<>();
      List<CodeBlock> paramTypes = new ArrayList<>();
      for (Param p : a.params()) {
        if (p.kind() == ParamKind.JSON) {
          fields.add(",\n$>$>$L$<$<", field(p.site(), false));
        } else if (p.kind() == ParamKind.CONTEXT) {
          contexts.add(CodeBlock.of("new $T($S, $T.class)", Sources.spi("ContextParameter"),
              p.element().getSimpleName().toString(), Sources.plain(types.erasure(p.element().asType()))));
        }
        paramTypes.add(CodeBlock.of("$T.class", Sources.plain(types.erasure(p.element().asType()))));
      }
      CodeBlock select = FieldsAndPages.selectField(a.view());
      if (select != null) {
        fields.add(",\n$>$>$L$<$<", select);
      }
      fields.add(")");
      CodeBlock.Builder args = CodeBlock.builder();
      args.add("$S,\n", a.name());
      args.add("$S,\n", a.method().getSimpleName().toString());
      args.add("$S,\n", a.description());
      args.add("$T.$L,\n", Sources.spi("Verb"), a.verb());
      args.add("$L, $L, $L, $L,\n", a.readOnly(), a.destructive(), a.idempotent(), a.openWorld());
      args.add("$L,\n", fields.build());
      args.add("$T.of($L),\n", List.class, CodeBlock.join(contexts, ", "));
      if (a.view() == null) {
        args.add("null,\n");
      } else {
        args.add("$T.INSTANCE,\n", PresenterStep.presenterName(a.view()));
      }
      args.add("$T.$L,\n", Sources.spi("ResultShape"), a.shape());
      args.add("$T.$L,\n", Sources.spi("ElementKind"), a.elementKind());
      if (a.resultSchema() == null) {
        args.add("null,\n");
      } else {
        args.add("$S,\n", a.resultSchema());
      }
      args.add("$T.$L,\n", ClassName.get("dev.mcpfusion.annotation", "CachePolicy"), a.cachePolicy());
      args.add("$L,\n", PresenterWriter.listOf(a.invalidates()));
      args.add("$L,\n", classList(a.middleware()));
      args.add("$T.<$T<?>>of($L),\n", List.class, Class.class, CodeBlock.join(paramTypes, ", "));
      args.add("$L", a.beanValidation());
      String title = title(a.method());
      if (!title.isEmpty()) {
        args.add(",\n$S", title);
      }
      m.addStatement("actions.add(new $T(\n$>$>$L$<$<))", Sources.spi("ActionDescriptor"),
          args.build());
    }
    m.addStatement("return new $T($S, $S, $T.class, common, actions, $L)",
        Sources.spi("RouterDescriptor"), r.name(), r.description(), ClassName.get(r.type()),
        classList(r.middleware()));
    return m.build();
  }

  /** The verb annotation's {@code title}; {@code ""} when it sets none. */
  private static String title(ExecutableElement method) {
    for (String verb : List.of("Query", "Mutation", "Action")) {
      AnnotationMirror mirror = Mirrors.find(method, Props.ANN + verb);
      AnnotationValue value = mirror == null ? null : Mirrors.explicitValue(mirror, "title");
      if (value != null && value.getValue() instanceof String title) {
        return title.strip();
      }
    }
    return "";
  }

  private CodeBlock classList(List<TypeMirror> classes) {
    List<CodeBlock> items = new ArrayList<>();
    for (TypeMirror t : classes) {
      items.add(CodeBlock.of("$T.class", Sources.plain(types.erasure(t))));
    }
    return CodeBlock.of("$T.<$T<?>>of($L)", List.class, Class.class, CodeBlock.join(items, ", "));
  }

  private CodeBlock field(Inputs.Site site, boolean common) {
    String schema = JsonText.write(Inputs.schema(site));
    if (site.in instanceof Fillables.ProfileIn) {
      return CodeBlock.of("new $T($S, $S, $L, $S, $L, $S)", Sources.spi("FieldDescriptor"),
          site.name, schema, site.required, site.description, common,
          ((Fillables.ProfileIn) site.in).profile);
    }
    return CodeBlock.of("new $T($S, $S, $L, $S, $L)", Sources.spi("FieldDescriptor"), site.name,
        schema, site.required, site.description, common);
  }
}
