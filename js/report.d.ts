// Types of `neotoma-agent-wasm/report` (js/report.mjs): the `🧠 Neotoma` markdown report of a
// turn's result, plain JS (no wasm loaded). Also re-exported from the package's main entry.

import type { CloseTurnResult, OpenTurnResult, TurnRepair, TurnResult } from './neotoma_agent_wasm.js';

/** Options of `renderTurnReport`. */
export interface RenderTurnReportOptions {
  /** The Neotoma Inspector: each entity's type links to `<inspectorBaseUrl>/entities/<id>`
   *  (a trailing slash is dropped). Without it (or blank) nothing is linked. */
  inspectorBaseUrl?: string;
}

/**
 * The `🧠 Neotoma` report to put under a reply (after a blank line: `reply + "\n\n" + report`):
 * upstream's markdown layout, a `---` rule and a `## 🧠 Neotoma` heading, then `Retrieved`,
 * `Created`, `Updated` (`produced` entities by `action`), `Issues` (messages waiting in the
 * outbox, store warnings) and `Repairs`, each a label and a bullet list, left out when empty.
 * `""` when there is nothing to report. Names are escaped: a stored name cannot add links or
 * formatting. Throws an `Error` named "NeotomaError" with `code: "INVALID_INPUT"` for a `result`
 * that is not a turn result object (or holds what JSON cannot) and for bad options.
 */
export declare function renderTurnReport(
  result: TurnResult | CloseTurnResult | OpenTurnResult | (TurnResult & { repairs?: TurnRepair[] }),
  options?: RenderTurnReportOptions,
): string;
