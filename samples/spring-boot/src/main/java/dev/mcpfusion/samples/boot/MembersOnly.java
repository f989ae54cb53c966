package dev.mcpfusion.samples.boot;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import org.springframework.stereotype.Component;

/** Refuses a call that names no library member. A bean: {@code @Use(MembersOnly.class)} gets it. */
@Component
public class MembersOnly implements FusionMiddleware {
  @Override
  public Object invoke(Invocation call, Chain next) throws Exception {
    if (!call.get(Member.class).map(Member::known).orElse(false)) {
      throw FusionError.of("UNAUTHORIZED", "Only library members can borrow books.")
          .recovery("Tell the user to connect with their library member id; do not retry.");
    }
    return next.proceed(call);
  }
}
