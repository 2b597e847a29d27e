// The README route as a Cloudflare Worker: POST /api/chat. Each waitUntil promise (the reply's
// store) logs when it settles, and a request the client abandons logs that, so a test sees both.
import { chatRoute } from './route.mjs';

export default {
  fetch(request, env, ctx) {
    request.signal?.addEventListener('abort', () => console.log('ai-sdk request aborted'));
    return chatRoute(request, env, (promise) =>
      ctx.waitUntil(promise.then((result) => console.log(`ai-sdk waitUntil settled: ${result ? `stored ${result.turnId}` : 'nothing stored'}`))),
    );
  },
};
