import { type KeyboardEvent, type ReactNode, useMemo, useState } from "react";
import { encodeResult } from "../console/encode-result.ts";
import { usePayloadPresets } from "../hooks/use-payload-presets.ts";
import { checkPayloadText, type DeclaredSchema, schemaProblemText } from "../runs/input-schema.ts";
import type { RunState } from "../runs/run-state.ts";
import { runStatusText, runStatusTitle, timingsText } from "../runs/run-text.ts";
import { defaultPayload, formFields, formPayload, placeMessages } from "../runs/schema-form.ts";
import { Icon } from "./Icon.tsx";
import { SchemaForm } from "./SchemaForm.tsx";
import { ValueView } from "./ValueView.tsx";

type PayloadView = "form" | "json";
const NO_SCHEMA: DeclaredSchema = { status: "none" };
const NO_PROBLEMS: readonly string[] = [];

/**
 * Payload editor with saved presets, the run button, status, timings and the result. With an input
 * schema, the payload is checked as it is typed and can be edited as a form or as JSON (the same text);
 * a payload the schema refuses still runs (the Workshop answers `invalid`), and the Run button says so.
 */
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
  /** The manifest's `inputSchema`, as the editor holds it. */
  inputSchema?: DeclaredSchema;
  /** Said above the result when it is a stored run's, not one made now. */
  recordedNote?: string;
  /** Shown under a failed run's message: what to do about it (a capability the gadget lacks). */
  failureHint?(message: string): ReactNode;
}) {
  const { draftId, payloadText, onPayloadText, state } = props;
  const { presets, save } = usePayloadPresets(draftId);
  const declared = props.inputSchema ?? NO_SCHEMA;
  const schema = declared.status === "ok" ? declared.schema : undefined;
  const fields = useMemo(() => (schema ? formFields(schema) : undefined), [schema]);
  const checked = useMemo(() => checkPayloadText(payloadText, schema), [payloadText, schema]);
  const [view, setView] = useState<PayloadView>("form");
  const formRoot = fields ? formPayload(payloadText) : undefined;
  const problems = checked.status === "breaks-schema" ? checked.errors : NO_PROBLEMS;
  const placed = useMemo(() => placeMessages(fields ?? [], problems), [fields, problems]);
  const running = state.status === "running";
  const shown: PayloadView = fields ? view : "json";
  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = shown === "form" ? "json" : "form";
    setView(next);
    document.getElementById(`payload-tab-${next}`)?.focus();
  };

  const savePreset = () => {
    const name = window.prompt("Name this payload preset:")?.trim();
    if (!name) return;
    save({ name, payload: payloadText });
  };

  return (
    // One column of fixed rows around two that share what is left: the payload (at least three lines)
    // and the result (scrolling on its own), so the panel itself never scrolls around a scroller.
    <section className="flex h-full min-h-0 flex-col gap-2 p-2 text-sm" aria-label="Run">
      <div className="flex shrink-0 items-center gap-2">
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
      {fields && (
        <div className="flex shrink-0 gap-1 text-xs" role="tablist" aria-label="Edit the payload as">
          {(["form", "json"] as const).map((which) => (
            <button
              key={which}
              type="button"
              role="tab"
              id={`payload-tab-${which}`}
              aria-selected={shown === which}
              aria-controls={`payload-${which}-panel`}
              tabIndex={shown === which ? 0 : -1}
              className={`px-2 py-0.5 ${shown === which ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-600 dark:text-zinc-400"}`}
              onClick={() => setView(which)}
              onKeyDown={onTabKey}
            >
              {which === "form" ? "Form" : "JSON"}
            </button>
          ))}
        </div>
      )}
      {declared.status === "invalid" && (
        <p className="text-xs text-amber-700 dark:text-amber-400" data-testid="input-schema-invalid">
          {declared.error} The payload is not checked against it until it is fixed in gadget.json.
        </p>
      )}
      {fields && (
        <div
          id="payload-form-panel"
          role="tabpanel"
          aria-labelledby="payload-tab-form"
          hidden={shown !== "form"}
          className="min-h-18 flex-1 overflow-auto"
        >
          {formRoot?.ok ? (
            <SchemaForm
              fields={fields}
              root={formRoot.value}
              messages={placed.byField}
              unplaced={placed.unplaced}
              onPayloadText={onPayloadText}
            />
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {formRoot?.reason}{" "}
              <button
                type="button"
                className="rounded border border-zinc-300 px-1 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300"
                onClick={() => onPayloadText(JSON.stringify(defaultPayload(fields), null, 2))}
              >
                Start from the schema
              </button>
            </p>
          )}
        </div>
      )}
      <div
        id="payload-json-panel"
        {...(fields ? { role: "tabpanel", "aria-labelledby": "payload-tab-json" } : {})}
        hidden={shown !== "json"}
        className="flex min-h-18 flex-1 flex-col"
      >
        <textarea
          id="payload"
          className="min-h-18 w-full flex-1 resize-none rounded border border-zinc-300 bg-transparent p-1 font-mono text-xs dark:border-zinc-700"
          value={payloadText}
          spellCheck={false}
          aria-invalid={checked.status !== "ok" || undefined}
          aria-describedby={problems.length > 0 ? "payload-schema-problems" : undefined}
          onChange={(e) => onPayloadText(e.target.value)}
        />
        {problems.length > 0 && (
          <ul
            id="payload-schema-problems"
            className="max-h-16 shrink-0 overflow-auto text-xs text-red-600"
            data-testid="schema-problems"
          >
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </div>
      {checked.status === "unreadable" && (
        <p className="text-xs text-red-600" role="alert">
          {checked.error}
        </p>
      )}
      <div className="flex shrink-0 flex-wrap items-center gap-2">
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
            className={`flex items-center gap-1 rounded px-3 py-1 text-white disabled:opacity-50 ${problems.length > 0 ? "bg-amber-700 hover:bg-amber-800" : "bg-emerald-700 hover:bg-emerald-800"}`}
            disabled={checked.status === "unreadable"}
            onClick={props.onRun}
            title={problems.length > 0 ? `${schemaProblemText(problems)} (Ctrl+Enter)` : "Run (Ctrl+Enter)"}
            aria-describedby={problems.length > 0 ? "run-schema-warning" : undefined}
            data-testid="run-button"
          >
            <Icon name={problems.length > 0 ? "problem" : "play"} className="h-3.5 w-3.5" />
            Run
          </button>
        )}
        {problems.length > 0 && !running && (
          <span
            id="run-schema-warning"
            className="text-xs text-amber-700 dark:text-amber-400"
            data-testid="run-schema-warning"
          >
            {problems.length === 1 ? "1 problem" : `${problems.length} problems`} with the input schema: the run will
            end invalid
          </span>
        )}
        <span
          className="text-xs text-zinc-600 dark:text-zinc-400"
          data-testid="run-status"
          aria-live="polite"
          title={runStatusTitle(state)}
        >
          {runStatusText(state)}
        </span>
      </div>
      {state.status === "done" && (
        <div className="max-h-[45%] shrink-0 space-y-1 overflow-auto" data-testid="run-result">
          {props.recordedNote && (
            <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="run-recorded">
              {props.recordedNote}
            </p>
          )}
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
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
            <>
              <p className="whitespace-pre-wrap text-xs text-red-600">{state.outcome.message}</p>
              {props.failureHint?.(state.outcome.message)}
            </>
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
