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

  private final Types types;
  private final Filer filer;
  private final Reporter reporter;
  private final ReferenceStep references;

  RouterWriter(Types types, Filer filer, Reporter reporter, ReferenceStep references) {
    this.references = references;
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
    // decode and invoke reject an unknown index with the same words: one constant.
    type.addField(FieldSpec.builder(String.class, "NO_ACTION", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer("$S", "No action number in " + r.name() + ": ").build());
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
    decode.addCode("default:\n$>").addStatement("throw new $T(NO_ACTION + action)",
        IllegalArgumentException.class).addCode("$<");
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
    invoke.addCode("default:\n$>").addStatement("throw new $T(NO_ACTION + action)",
        IllegalArgumentException.class).addCode("$<");
    invoke.endControlFlow();
    type.addMethod(invoke.build());

    ReferenceList.addTo(type, references.uncheckedIn(r.type()));
    type.addMethod(descriptorMethod(r));
    for (ActionModel a : r.actions()) {
      type.addMethod(gen.decodeAction(r, a));
    }
    if (!r.commonFields().isEmpty()) {
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
    }
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

  /**
   * {@code buildDescriptor()}: named calls only, each setting written only when it differs from
   * the builder's default, so a reader sees what is particular to each action.
   */
  private MethodSpec descriptorMethod(RouterModel r) {
    ClassName fd = Sources.spi("FieldDescriptor");
    MethodSpec.Builder m = MethodSpec.methodBuilder("buildDescriptor")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Sources.spi("RouterDescriptor"));
    boolean hasCommon = !r.commonFields().isEmpty();
    if (hasCommon) {
      List<CodeBlock> common = new ArrayList<>();
      for (Inputs.Site site : r.commonFields()) {
        common.add(field(site, true));
      }
      m.addStatement("$T<$T> common = $T.of(\n$>$>$L$<$<)", List.class, fd, List.class,
          CodeBlock.join(common, ",\n"));
    }
    m.addStatement("$T<$T> actions = new $T<>()", List.class, Sources.spi("ActionDescriptor"),
        ArrayList.class);
    for (ActionModel a : r.actions()) {
      List<CodeBlock> own = new ArrayList<>();
      CodeBlock.Builder calls = CodeBlock.builder();
      List<CodeBlock> paramTypes = new ArrayList<>();
      for (Param p : a.params()) {
        TypeName erased = Sources.plain(types.erasure(p.element().asType()));
        if (p.kind() == ParamKind.JSON) {
          own.add(field(p.site(), false));
        } else if (p.kind() == ParamKind.CONTEXT) {
          calls.add("\n.context($S, $T.class)", p.element().getSimpleName().toString(), erased);
        }
        paramTypes.add(CodeBlock.of("$T.class", erased));
      }
      CodeBlock select = FieldsAndPages.selectField(a.method(), a.view());
      if (select != null) {
        own.add(select);
      }
      CodeBlock.Builder b = CodeBlock.builder();
      b.add("$T.$L($S)", Sources.spi("ActionDescriptor"),
          a.verb().toLowerCase(java.util.Locale.ROOT), a.name());
      b.add("$>$>\n.method($S)", a.method().getSimpleName().toString());
      b.add("\n.description($S)", a.description());
      flag(b, "readOnly", a.readOnly());
      flag(b, "destructive", a.destructive());
      flag(b, "idempotent", a.idempotent());
      flag(b, "openWorld", a.openWorld());
      if (hasCommon) {
        b.add("\n.fields(fields(common$L))", own.isEmpty() ? ""
            : CodeBlock.of(",\n$>$>$L$<$<", CodeBlock.join(own, ",\n")));
      } else if (!own.isEmpty()) {
        b.add("\n.fields($T.of(\n$>$>$L$<$<))", List.class, CodeBlock.join(own, ",\n"));
      }
      b.add(calls.build());
      if (a.view() != null) {
        b.add("\n.presenter($T.INSTANCE)", PresenterStep.presenterName(a.view()));
      }
      if (!a.shape().equals("VOID") || !a.elementKind().equals("NONE")) {
        b.add("\n.result($T.$L, $T.$L)", Sources.spi("ResultShape"), a.shape(),
            Sources.spi("ElementKind"), a.elementKind());
      }
      if (a.resultSchema() != null) {
        b.add("\n.resultSchema($S)", a.resultSchema());
      }
      if (a.inputSchema() != null) {
        b.add("\n.inputSchema($S)", a.inputSchema());
      }
      if (!a.cachePolicy().equals("DEFAULT")) {
        b.add("\n.cache($T.$L)", ClassName.get("dev.mcpfusion.annotation", "CachePolicy"),
            a.cachePolicy());
      }
      if (!a.invalidates().isEmpty()) {
        b.add("\n.invalidates($L)", Sources.strings(a.invalidates()));
      }
      if (!a.middleware().isEmpty()) {
        b.add("\n.middleware($L)", Sources.classes(types, a.middleware()));
      }
      if (!paramTypes.isEmpty()) {
        b.add("\n.parameterTypes($L)", CodeBlock.join(paramTypes, ", "));
      }
      flag(b, "beanValidation", a.beanValidation());
      java.util.LinkedHashSet<String> scopes = new java.util.LinkedHashSet<>(r.scopes());
      scopes.addAll(a.scopes());
      if (!scopes.isEmpty()) {
        b.add("\n.scopes($L)", Sources.strings(List.copyOf(scopes)));
      }
      String title = title(a.method());
      if (!title.isEmpty()) {
        b.add("\n.title($S)", title);
      }
      b.add("\n.build()$<$<");
      m.addStatement("actions.add($L)", b.build());
    }
    CodeBlock.Builder router = CodeBlock.builder().add("$T.builder($S, $T.class)$>$>",
        Sources.spi("RouterDescriptor"), r.name(), ClassName.get(r.type()));
    if (!r.description().isEmpty()) {
      router.add("\n.description($S)", r.description());
    }
    if (hasCommon) {
      router.add("\n.commonFields(common)");
    }
    router.add("\n.actions(actions)");
    if (!r.middleware().isEmpty()) {
      router.add("\n.middleware($L)", Sources.classes(types, r.middleware()));
    }
    m.addStatement("return $L", router.add("\n.build()$<$<").build());
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

  private static void flag(CodeBlock.Builder b, String name, boolean value) {
    if (value) {
      b.add("\n.$L(true)", name);
    }
  }

  private CodeBlock field(Inputs.Site site, boolean common) {
    String schema = JsonText.write(Inputs.schema(site));
    CodeBlock.Builder b = CodeBlock.builder().add("$T.$L($S, $S)", Sources.spi("FieldDescriptor"),
        site.required ? "required" : "optional", site.name, schema);
    if (!site.description.isEmpty()) {
      b.add(".describedAs($S)", site.description);
    }
    if (common) {
      b.add(".asCommon()");
    }
    if (site.in instanceof Fillables.ProfileIn profiled) {
      b.add(".withProfile($S)", profiled.profile);
    }
    return b.build();
  }
}
