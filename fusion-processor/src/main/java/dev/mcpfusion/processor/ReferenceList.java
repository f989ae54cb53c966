package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code references()} into a generated router or presenter: the references its source
 * names whose router is outside the compilation, for {@code build()} to check against every
 * registered router. Nothing is written when there are none (the SPI default is the empty list).
 */
final class ReferenceList {
  private ReferenceList() {}

  static void addTo(TypeSpec.Builder type, List<ReferenceStep.Unchecked> unchecked) {
    if (unchecked.isEmpty()) {
      return;
    }
    ClassName reference = Sources.spi("Reference");
    List<CodeBlock> items = new ArrayList<>();
    for (ReferenceStep.Unchecked ref : unchecked) {
      items.add(CodeBlock.of("new $T($S, $S)", reference, ref.site(), ref.target()));
    }
    type.addMethod(MethodSpec.methodBuilder("references").addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(ParameterizedTypeName.get(ClassName.get(List.class), reference))
        .addJavadoc("References to routers outside this compilation, for {@code build()} to check.\n")
        .addStatement("return $T.of(\n$>$>$L$<$<)", List.class, CodeBlock.join(items, ",\n"))
        .build());
  }
}
