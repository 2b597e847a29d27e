// The README route as a Cloudflare Worker: POST /api/chat. Each waitUntil promise (the reply's
// store) logs when it settles, so a test sees the store finish after the response.
import { chatRoute } from './route.mjs';

export default {
  fetch(request, env, ctx) {
    return chatRoute(request, env, (promise) =>
      ctx.waitUntil(promise.then((result) => console.log(`ai-sdk waitUntil settled: ${result ? `stored ${result.turnId}` : 'nothing stored'}`))),
    );
  },
};
