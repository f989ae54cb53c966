package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.processing.Filer;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;

/**
 * Writes {@code X_Proxy} for a router with {@code @Proxy} actions: a subclass whose constructor
 * takes the configured {@code ProxyUpstreams}, bounds them by the declared {@code @ProxyUpstream}s
 * (and refuses one that lacks an upstream an action names), and whose abstract proxy methods each
 * make their REST call through it.
 */
final class ProxyWriter {
  private static final ClassName UPSTREAMS = ClassName.bestGuess(ProxyValidation.UPSTREAMS);
  private static final ClassName POLICY = ClassName.get("dev.mcpfusion.outbound", "DeclaredUpstream");

  private final Filer filer;
  private final Reporter reporter;

  ProxyWriter(Filer filer, Reporter reporter) {
    this.filer = filer;
    this.reporter = reporter;
  }

  /** The generated subclass of a router with proxy actions. */
  static ClassName proxyName(RouterModel r) {
    return ClassName.get(ClassName.get(r.type()).packageName(), Names.flatName(r.type()) + "_Proxy");
  }

  void write(RouterModel r) {
    ClassName router = ClassName.get(r.type());
    ClassName self = proxyName(r);
    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(r.type())
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The {@code @Proxy} actions of {@link $T}, each a REST call through the guarded client of\n"
            + "its upstream. Register an instance: {@code register(new $T(upstreams))}.\n", router, self)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .superclass(router)
        .addField(UPSTREAMS, "upstreams", Modifier.PRIVATE, Modifier.FINAL);
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
        .addJavadoc("Binds the actions to {@code upstreams}, bounded by the declared {@code @ProxyUpstream}s.\n\n"
            + "@throws IllegalStateException when an upstream an action calls is not configured,\n"
            + "    or its base URL is outside its {@code @ProxyUpstream}\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(UPSTREAMS, "upstreams")
        .addStatement("this.upstreams = $L", bound(r));
    for (ProxyValidation.ProxyModel p : r.proxies()) {
      constructor.addStatement("upstreams.require($S, $S)", p.upstream(),
          Names.display(r.type()) + "." + p.method().getSimpleName());
    }
    type.addMethod(constructor.build());
    for (ProxyValidation.ProxyModel p : r.proxies()) {
      type.addMethod(method(p));
    }
    String error = Sources.write(filer, self.packageName(), type.build(), r.type());
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, r.type(), self, error);
    }
  }

  private static MethodSpec method(ProxyValidation.ProxyModel p) {
    ExecutableElement m = p.method();
    MethodSpec.Builder b = MethodSpec.methodBuilder(m.getSimpleName().toString())
        .addAnnotation(Override.class)
        .returns(Sources.plain(m.getReturnType()));
    for (Modifier modifier : m.getModifiers()) {
      if (modifier == Modifier.PUBLIC || modifier == Modifier.PROTECTED) {
        b.addModifiers(modifier);
      }
    }
    for (VariableElement v : m.getParameters()) {
      b.addParameter(Sources.plain(v.asType()), v.getSimpleName().toString());
    }
    b.addStatement("return this.upstreams.$L($S, $S, $S,\n$>$>$L,\n$L)$<$<", p.array() ? "array" : "object",
        p.upstream(), p.httpMethod(), p.path(), args(p.pathParams()), args(p.restParams()));
    return b.build();
  }

  /**
   * The upstreams bounded by the policies of the upstreams the actions call: every one is declared
   * (the processor refuses a proxy whose upstream is not), so {@code within} always narrows them.
   */
  private static CodeBlock bound(RouterModel r) {
    Map<String, UpstreamDeclarations.Policy> policies = new LinkedHashMap<>();
    for (ProxyValidation.ProxyModel p : r.proxies()) {
      policies.putIfAbsent(p.upstream(), Objects.requireNonNull(p.policy(), p.upstream()));
    }
    List<CodeBlock> declared = new ArrayList<>();
    for (UpstreamDeclarations.Policy p : policies.values()) {
      declared.add(CodeBlock.of("new $T($S, $T.of($L), $T.of($L),\n$L$L, $L$L, $L$L)", POLICY, p.name(),
          List.class, strings(p.hosts()), List.class, strings(p.schemes()), p.maxResponseBytes(), "L",
          p.connectTimeoutMs(), "L", p.timeoutMs(), "L"));
    }
    return CodeBlock.of("$T.requireNonNull(upstreams, $S).within($S,\n$>$>$L)$<$<", Objects.class, "upstreams",
        Names.display(r.type()), CodeBlock.join(declared, ",\n"));
  }

  private static CodeBlock strings(List<String> values) {
    return CodeBlock.join(values.stream().map(v -> CodeBlock.of("$S", v)).toList(), ", ");
  }

  private static CodeBlock args(List<String> names) {
    List<CodeBlock> pairs = new ArrayList<>();
    for (String name : names) {
      pairs.add(CodeBlock.of("$S, $N", name, name));
    }
    return CodeBlock.of("$T.args($L)", UPSTREAMS, CodeBlock.join(pairs, ", "));
  }
}
