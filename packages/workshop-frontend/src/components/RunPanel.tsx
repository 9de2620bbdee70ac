import { encodeResult } from "../console/encode-result.ts";
import { usePayloadPresets } from "../hooks/use-payload-presets.ts";
import { parsePayload } from "../runs/payload.ts";
import type { RunState } from "../runs/run-state.ts";
import { runStatusText, timingsText } from "../runs/run-text.ts";
import { Icon } from "./Icon.tsx";
import { ValueView } from "./ValueView.tsx";

/** Payload editor with saved presets, the run button, status, timings and the result. */
export function RunPanel(props: {
  draftId: string;
  payloadText: string;
  onPayloadText(text: string): void;
  state: RunState;
  onRun(): void;
  onCancel(): void;
  /** Offered once a run is done: makes its record shareable. */
  onShareRun?(runId: string): void;
  /** Offered once a run is done: its input and result become a new test case. */
  onSaveAsTest?(runId: string): void;
  dark: boolean;
  /** Saved payload presets belong to an editable draft; shared pages leave them out. */
  presets?: boolean;
}) {
  const { draftId, payloadText, onPayloadText, state } = props;
  const { presets, save } = usePayloadPresets(draftId);
  const parsed = parsePayload(payloadText);
  const running = state.status === "running";

  const savePreset = () => {
    const name = window.prompt("Name this payload preset:")?.trim();
    if (!name) return;
    save({ name, payload: payloadText });
  };

  return (
    <section className="flex h-full flex-col gap-2 overflow-auto p-2 text-sm" aria-label="Run">
      <div className="flex items-center gap-2">
        <label htmlFor="payload" className="font-semibold">
          Payload
        </label>
        {props.presets !== false && (
          <>
            <select
              className="ml-auto rounded border border-zinc-300 bg-transparent px-1 text-xs dark:border-zinc-700"
              aria-label="Payload presets"
              value=""
              onChange={(e) => {
                const preset = presets.find((p) => p.name === e.target.value);
                if (preset) onPayloadText(preset.payload);
              }}
            >
              <option value="">Presets…</option>
              {presets.map((preset) => (
                <option key={preset.name} value={preset.name}>
                  {preset.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="rounded px-2 text-xs hover:bg-zinc-200 dark:hover:bg-zinc-800"
              onClick={savePreset}
            >
              Save preset
            </button>
          </>
        )}
      </div>
      <textarea
        id="payload"
        className="h-24 w-full rounded border border-zinc-300 bg-transparent p-1 font-mono text-xs dark:border-zinc-700"
        value={payloadText}
        spellCheck={false}
        onChange={(e) => onPayloadText(e.target.value)}
      />
      {!parsed.ok && (
        <p className="text-xs text-red-600" role="alert">
          {parsed.error}
        </p>
      )}
      <div className="flex items-center gap-2">
        {running ? (
          <button
            type="button"
            className="flex items-center gap-1 rounded bg-red-600 px-3 py-1 text-white hover:bg-red-700"
            onClick={props.onCancel}
            title="Cancel the run"
          >
            <Icon name="stop" className="h-3.5 w-3.5" />
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="flex items-center gap-1 rounded bg-emerald-600 px-3 py-1 text-white hover:bg-emerald-700 disabled:opacity-50"
            disabled={!parsed.ok}
            onClick={props.onRun}
            title="Run (Ctrl+Enter)"
          >
            <Icon name="play" className="h-3.5 w-3.5" />
            Run
          </button>
        )}
        <span className="text-xs text-zinc-500" data-testid="run-status" aria-live="polite">
          {runStatusText(state)}
        </span>
      </div>
      {state.status === "done" && (
        <div className="space-y-1" data-testid="run-result">
          <p className="text-xs text-zinc-500">
            {props.onShareRun && (
              <button
                type="button"
                className="mr-2 rounded border border-zinc-300 px-1 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
                onClick={() => props.onShareRun?.(state.outcome.runId)}
              >
                Share run
              </button>
            )}
            {props.onSaveAsTest && (
              <button
                type="button"
                className="mr-2 rounded border border-zinc-300 px-1 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
                onClick={() => props.onSaveAsTest?.(state.outcome.runId)}
              >
                Save as test case
              </button>
            )}
            {timingsText(state.outcome.timings)}
          </p>
          {state.outcome.status === "ok" ? (
            <div className="rounded border border-zinc-200 p-1 font-mono text-xs dark:border-zinc-800">
              <ValueView value={encodeResult(state.outcome.result)} dark={props.dark} />
            </div>
          ) : (
            <p className="whitespace-pre-wrap text-xs text-red-600">{state.outcome.message}</p>
          )}
        </div>
      )}
      {(state.status === "interrupted" || state.status === "failed") && (
        <p className="text-xs text-red-600" role="alert">
          {state.status === "interrupted" ? state.reason : state.message}
        </p>
      )}
    </section>
  );
}
