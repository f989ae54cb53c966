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
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/** Writes {@code X_Features} from a clean {@link FeatureStep.FeaturesModel}. */
final class FeatureWriter {
  private static final ClassName ARGS = Sources.spi("Args");
  private static final ClassName PROBLEMS = Sources.spi("Problems");
  private static final TypeName MAP_OF_ANY = ParameterizedTypeName.get(ClassName.get(Map.class),
      ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName MAP_OF_STRINGS = ParameterizedTypeName.get(
      ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(String.class));

  private final Types types;
  private final Filer filer;
  private final Reporter reporter;

  FeatureWriter(Types types, Filer filer, Reporter reporter) {
    this.types = types;
    this.filer = filer;
    this.reporter = reporter;
  }


  void write(FeatureStep.FeaturesModel f) {
    ClassName user = ClassName.get(f.type);
    ClassName self = FeatureStep.featuresName(f.type);
    // Prompt arguments are checked exactly as tool inputs, a constraint's own message included.
    DecodeWriter checks = new DecodeWriter(types);
    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(f.type)
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The prompts, resources and completions of {@link $T}.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(Sources.spi("GeneratedFeatures"));
    type.addField(FieldSpec.builder(Sources.spi("FeaturesDescriptor"), "DESCRIPTOR",
        Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL).initializer("buildDescriptor()").build());
    type.addField(user, "target", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE)
        .addParameter(user, "target")
        .addStatement("this.target = $T.requireNonNull(target, $S)", Objects.class, "target").build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addJavadoc("Binds an instance of {@link $T}, without reflection.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("GeneratedFeatures"))
        .addParameter(user, "target")
        .addStatement("return new $T(target)", self).build());
    type.addMethod(MethodSpec.methodBuilder("describe")
        .addJavadoc("The descriptor without an instance of {@link $T}: for build tools such as the\n"
            + "capability lockfile, which must never run user code.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("FeaturesDescriptor"))
        .addStatement("return DESCRIPTOR").build());
    type.addMethod(override("spiVersion", TypeName.INT)
        .addStatement("return $L", PresenterStep.SPI_VERSION).build());
    type.addMethod(override("descriptor", Sources.spi("FeaturesDescriptor"))
        .addStatement("return DESCRIPTOR").build());

    MethodSpec.Builder decode = override("decodePrompt", ArrayTypeName.of(Object.class))
        .addParameter(TypeName.INT, "prompt")
        .addParameter(MAP_OF_ANY, "arguments")
        .addParameter(PROBLEMS, "problems");
    decode.addStatement("$T args = arguments == null ? $T.of() : arguments", MAP_OF_ANY, Map.class);
    decode.beginControlFlow("switch (prompt)");
    for (int i = 0; i < f.prompts.size(); i++) {
      decode.addCode("case $L:\n$>", i)
          .addStatement("return decodePrompt$L(args, problems)", i).addCode("$<");
    }
    fail(decode, "No prompt number in " + Names.display(f.type) + ": ", "prompt");
    type.addMethod(decode.build());

    MethodSpec.Builder prompt = override("prompt", ClassName.OBJECT)
        .addParameter(TypeName.INT, "prompt")
        .addParameter(ArrayTypeName.of(Object.class), "a")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    prompt.beginControlFlow("switch (prompt)");
    for (int i = 0; i < f.prompts.size(); i++) {
      FeatureStep.PromptModel p = f.prompts.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (int j = 0; j < p.params.size(); j++) {
        FeatureStep.Param param = p.params.get(j);
        args.add(param.context ? context(param)
            : CodeBlock.of("($T) a[$L]", Sources.plain(param.element.asType()).box(), j));
      }
      prompt.addCode("case $L:\n$>", i).addStatement("return $L", call(user, p.method, args))
          .addCode("$<");
    }
    fail(prompt, "No prompt number in " + Names.display(f.type) + ": ", "prompt");
    if (needsUnchecked(f.prompts.stream().flatMap(p -> p.params.stream()).toList())) {
      prompt.addAnnotation(unchecked());
    }
    type.addMethod(prompt.build());

    MethodSpec.Builder resource = override("resource", ClassName.OBJECT)
        .addParameter(TypeName.INT, "resource")
        .addParameter(MAP_OF_STRINGS, "variables")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    resource.beginControlFlow("switch (resource)");
    for (int i = 0; i < f.resources.size(); i++) {
      FeatureStep.ResourceModel r = f.resources.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (FeatureStep.Param param : r.params) {
        args.add(param.context ? context(param) : CodeBlock.of("variables.get($S)", param.name()));
      }
      resource.addCode("case $L:\n$>", i).addStatement("return $L", call(user, r.method, args))
          .addCode("$<");
    }
    fail(resource, "No resource number in " + Names.display(f.type) + ": ", "resource");
    if (needsUnchecked(f.resources.stream().flatMap(r -> r.params.stream()).toList())) {
      resource.addAnnotation(unchecked());
    }
    type.addMethod(resource.build());

    TypeName strings = ParameterizedTypeName.get(List.class, String.class);
    MethodSpec.Builder complete = override("complete", strings)
        .addParameter(TypeName.INT, "completion")
        .addParameter(String.class, "value")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    complete.beginControlFlow("switch (completion)");
    for (int i = 0; i < f.completions.size(); i++) {
      FeatureStep.CompletionModel c = f.completions.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (FeatureStep.Param param : c.params) {
        args.add(param.context ? context(param) : CodeBlock.of("value"));
      }
      complete.addCode("case $L:\n$>", i).addStatement("return $L", call(user, c.method, args))
          .addCode("$<");
    }
    fail(complete, "No completion number in " + Names.display(f.type) + ": ", "completion");
    if (needsUnchecked(f.completions.stream().flatMap(c -> c.params.stream()).toList())) {
      complete.addAnnotation(unchecked());
    }
    type.addMethod(complete.build());

    type.addMethod(descriptorMethod(f));
    for (int i = 0; i < f.prompts.size(); i++) {
      type.addMethod(decodePrompt(i, f.prompts.get(i), checks));
    }
    for (FieldSpec field : checks.patternFields) {
      type.addField(field);
    }
    String error = Sources.write(filer, self.packageName(), type.build(), f.type);
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, f.type, self, error);
    }
  }

  private static com.palantir.javapoet.AnnotationSpec unchecked() {
    return com.palantir.javapoet.AnnotationSpec.builder(SuppressWarnings.class)
        .addMember("value", "$S", "unchecked").build();
  }

  private boolean needsUnchecked(List<FeatureStep.Param> params) {
    for (FeatureStep.Param p : params) {
      TypeMirror t = p.element.asType();
      if (!Sources.plain(t).equals(Sources.plain(types.erasure(t)))) {
        return true;
      }
    }
    return false;
  }

  private static void fail(MethodSpec.Builder m, String message, String variable) {
    m.addCode("default:\n$>").addStatement("throw new $T($S + $N)", IllegalArgumentException.class,
        message, variable).addCode("$<");
    m.endControlFlow();
  }

  private static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  private static CodeBlock call(ClassName user, ExecutableElement method, List<CodeBlock> args) {
    String name = method.getSimpleName().toString();
    return method.getModifiers().contains(Modifier.STATIC)
        ? CodeBlock.of("$T.$N($L)", user, name, CodeBlock.join(args, ", "))
        : CodeBlock.of("target.$N($L)", name, CodeBlock.join(args, ", "));
  }

  private CodeBlock context(FeatureStep.Param param) {
    TypeMirror t = param.element.asType();
    TypeName erased = Sources.plain(types.erasure(t));
    TypeName full = Sources.plain(t);
    return full.equals(erased) ? CodeBlock.of("ctx.get($T.class)", erased)
        : CodeBlock.of("($T) ctx.get($T.class)", full, erased);
  }

  /** The {@code .context(name, Type.class)} calls of the context parameters, in order. */
  private CodeBlock contextCalls(List<FeatureStep.Param> params) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (FeatureStep.Param p : params) {
      if (p.context) {
        b.add("\n.context($S, $T.class)", p.name(),
            Sources.plain(types.erasure(p.element.asType())));
      }
    }
    return b.build();
  }

  private CodeBlock contextArgs(List<FeatureStep.Param> params) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (FeatureStep.Param p : params) {
      if (p.context) {
        b.add(", new $T($S, $T.class)", Sources.spi("ContextParameter"), p.name(),
            Sources.plain(types.erasure(p.element.asType())));
      }
    }
    return b.build();
  }

  /** The calls every prompt and resource builder shares, each only when not its default. */
  private void common(CodeBlock.Builder b, String method, String title, List<Icons.Model> icons,
      String description, List<FeatureStep.Param> params, TypeElement view,
      List<TypeMirror> middleware) {
    b.add("\n.method($S)", method);
    if (!title.isEmpty()) {
      b.add("\n.title($S)", title);
    }
    for (Icons.Model icon : icons) {
      b.add("\n.icon(new $T($S, $S, $L, $S))", Sources.spi("IconDescriptor"), icon.src(),
          icon.mimeType(), icon.sizes().isEmpty() ? CodeBlock.of("$T.of()", List.class)
              : CodeBlock.of("$T.of($L)", List.class, Sources.strings(icon.sizes())),
          icon.theme());
    }
    b.add("\n.description($S)", description);
    b.add(contextCalls(params));
    if (view != null) {
      b.add("\n.presenter($T.INSTANCE)", PresenterStep.presenterName(view));
    }
    if (!middleware.isEmpty()) {
      b.add("\n.middleware($L)", Sources.classes(types, middleware));
    }
  }

  private MethodSpec descriptorMethod(FeatureStep.FeaturesModel f) {
    MethodSpec.Builder m = MethodSpec.methodBuilder("buildDescriptor")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Sources.spi("FeaturesDescriptor"));
    ClassName pd = Sources.spi("PromptDescriptor");
    ClassName rd = Sources.spi("ResourceDescriptor");
    ClassName cd = Sources.spi("CompletionDescriptor");
    m.addStatement("$T<$T> prompts = new $T<>()", List.class, pd, ArrayList.class);
    for (FeatureStep.PromptModel p : f.prompts) {
      List<CodeBlock> arguments = new ArrayList<>();
      for (FeatureStep.Param param : p.params) {
        if (param.context) {
          continue;
        }
        Inputs.In value = param.site.in.value();
        List<String> constants = value.kind == Inputs.In.Kind.ENUM
            ? Views.enumConstants(value.type) : List.of();
        CodeBlock.Builder arg = CodeBlock.builder().add("$T.$L($S, $S)",
            Sources.spi("PromptArgument"), param.site.required ? "required" : "optional",
            param.name(), param.site.description);
        if (!constants.isEmpty()) {
          List<CodeBlock> names = new ArrayList<>();
          for (String c : constants) {
            names.add(CodeBlock.of("$S", c));
          }
          arg.add(".oneOf($L)", CodeBlock.join(names, ", "));
        }
        arguments.add(arg.build());
      }
      CodeBlock.Builder b = CodeBlock.builder().add("$T.builder($S)$>$>", pd, p.name);
      common(b, p.method.getSimpleName().toString(), p.title, p.icons, p.description, p.params, p.view,
          p.middleware);
      if (!arguments.isEmpty()) {
        b.add("\n.arguments(\n$>$>$L$<$<)", CodeBlock.join(arguments, ",\n"));
      }
      if (!p.scopes.isEmpty()) {
        b.add("\n.scopes($L)", Sources.strings(p.scopes));
      }
      m.addStatement("prompts.add($L)", b.add("\n.build()$<$<").build());
    }
    m.addStatement("$T<$T> resources = new $T<>()", List.class, rd, ArrayList.class);
    for (FeatureStep.ResourceModel r : f.resources) {
      CodeBlock.Builder b = CodeBlock.builder().add("$T.builder($S, $S)$>$>", rd, r.uri, r.name);
      common(b, r.method.getSimpleName().toString(), r.title, r.icons, r.description, r.params, r.view,
          r.middleware);
      b.add("\n.mimeType($S)", r.mimeType);
      if (!r.variables.isEmpty()) {
        b.add("\n.variables($L)", Sources.strings(r.variables));
      }
      if (r.binary) {
        b.add("\n.binary(true)");
      }
      if (!r.scopes.isEmpty()) {
        b.add("\n.scopes($L)", Sources.strings(r.scopes));
      }
      m.addStatement("resources.add($L)", b.add("\n.build()$<$<").build());
    }
    m.addStatement("$T<$T> completions = new $T<>()", List.class, cd, ArrayList.class);
    for (FeatureStep.CompletionModel c : f.completions) {
      boolean prompt = !c.prompt.isEmpty();
      m.addStatement("completions.add($T.$L($S, $S, $S$L))", cd,
          prompt ? "forPrompt" : "forResource", prompt ? c.prompt : c.resource, c.argument,
          c.method.getSimpleName().toString(), contextArgs(c.params));
    }
    m.addStatement("return new $T($S, $T.class, prompts, resources, completions, $T.<$T<?>>of($L))",
        Sources.spi("FeaturesDescriptor"), f.router, ClassName.get(f.type), List.class,
        Class.class, Sources.classes(types, f.middleware));
    return m.build();
  }

  private MethodSpec decodePrompt(int index, FeatureStep.PromptModel p, DecodeWriter checks) {
    MethodSpec.Builder m = MethodSpec.methodBuilder("decodePrompt" + index)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ArrayTypeName.of(Object.class))
        .addParameter(MAP_OF_ANY, "args")
        .addParameter(PROBLEMS, "p");
    List<String> accepted = new ArrayList<>();
    for (int j = 0; j < p.params.size(); j++) {
      FeatureStep.Param param = p.params.get(j);
      if (param.context) {
        continue;
      }
      Inputs.Site s = param.site;
      Inputs.In value = s.in.value();
      accepted.add(s.name);
      m.addStatement("Object raw$L = args.get($S)", j, s.name);
      if (value.kind == Inputs.In.Kind.ENUM) {
        m.addStatement("$T v$L = $T.enumValue(raw$L, $S, $T.class, p)", ClassName.get(value.type), j,
            ARGS, j, s.name, ClassName.get(value.type));
      } else {
        m.addStatement("String v$L = $T.string(raw$L, $S, p)", j, ARGS, j, s.name);
      }
    }
    m.addStatement("$T.rejectUnknown(args, $S, $L, p)", ARGS, "", PresenterWriter.listOf(accepted));
    for (int j = 0; j < p.params.size(); j++) {
      FeatureStep.Param param = p.params.get(j);
      if (!param.context) {
        checks.checks(m, param.site, "v" + j, "raw" + j, CodeBlock.of("$S", param.site.name));
      }
    }
    m.addStatement("Object[] out = new Object[$L]", p.params.size());
    for (int j = 0; j < p.params.size(); j++) {
      FeatureStep.Param param = p.params.get(j);
      if (param.context) {
        continue;
      }
      if (param.site.in.kind == Inputs.In.Kind.OPTIONAL) {
        m.addStatement("out[$L] = $T.ofNullable(v$L)", j, Optional.class, j);
      } else {
        m.addStatement("out[$L] = v$L", j, j);
      }
    }
    m.addStatement("return out");
    return m.build();
  }
}
