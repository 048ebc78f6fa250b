import { useEffect, useId, useState, type RefObject } from 'react';
import { rowListEdits } from '../components/row-list';
import { RowTable } from '../components/row-table';
import { newRowId, type HeaderRow } from './form-model';

/**
 * The parts the endpoint form and the variation form share: a labelled input with its problem
 * shown in place, the header rows (the body with its JSON check: body-field.tsx).
 */

/**
 * After a refused save: moves the focus to the form's first field marked invalid (once the
 * problems are rendered), so a keyboard or screen reader user lands on what to fix.
 */
export function useFocusProblem(form: RefObject<HTMLFormElement | null>): () => void {
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [asked, form]);
  return () => setAsked((n) => n + 1);
}

/** Leaving the page (reload, closing the tab) with unsaved changes: the browser asks first. */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
}

/** Props that tie an input to the message under it (`aria-invalid` when it is a problem). */
export function invalidProps(messageId: string, problem: string | undefined) {
  return problem ? { 'aria-invalid': true as const, 'aria-describedby': messageId } : {};
}

export function FieldMessage({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <span id={id} className="field-problem">
      {problem}
    </span>
  );
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string;
  hint?: string;
  className?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'text' | 'url';
  /** Values offered as the user types (a datalist); any other may be typed. */
  suggestions?: readonly string[];
}

/** A labelled text input; its problem (if any) below it, tied with aria-describedby. */
export function TextField({
  label,
  value,
  onChange,
  problem,
  hint,
  className,
  placeholder,
  inputMode,
  suggestions,
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const describedBy = [problem ? problemId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        value={value}
        placeholder={placeholder}
        list={suggestions ? `${id}-list` : undefined}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
      />
      {suggestions && (
        <datalist id={`${id}-list`}>
          {suggestions.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      )}
      {hint && (
        <span id={hintId} className="hint field-hint">
          {hint}
        </span>
      )}
      <FieldMessage id={problemId} problem={problem} />
    </div>
  );
}

/** A labelled select of fixed options; its problem (if any) below it, as TextField's. */
export function SelectField({
  label,
  value,
  onChange,
  options,
  disabled,
  problem,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | [value: string, text: string])[];
  disabled?: boolean;
  problem?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        {...invalidProps(`${id}-problem`, problem)}
      >
        {options.map((o) => {
          const [v, text] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
      <FieldMessage id={`${id}-problem`} problem={problem} />
    </div>
  );
}

/** Content types offered in the content type fields. */
export const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'text/html',
  'application/xml',
  'text/csv',
  'application/problem+json',
  'application/octet-stream',
] as const;

/** Header rows: a name and a value each, added and removed; problems by row id. */
export function HeadersEditor({
  rows,
  onChange,
  problems,
  what,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  problems: Record<number, string>;
  /** "Response" or "Variation": names the rows' labels. */
  what: string;
}) {
  const base = useId();
  const edit = rowListEdits<HeaderRow>((change) => onChange(change(rows)));
  return (
    <div className="headers-editor">
      {rows.length === 0 && <p className="hint">No headers.</p>}
      {rows.length > 0 && (
        <RowTable
          columns={['Name', 'Value']}
          rows={rows}
          onRemove={edit.remove}
          removeLabel={(r, i) => `Remove ${what.toLowerCase()} header ${r.name || i + 1}`}
          cells={(r, i) => {
            const problemId = `${base}-${r.id}`;
            return (
              <>
                <td>
                  <input
                    aria-label={`${what} header ${i + 1} name`}
                    value={r.name}
                    className="mono"
                    onChange={(e) => edit.update(r.id, { name: e.target.value })}
                    {...invalidProps(problemId, problems[r.id])}
                  />
                  <FieldMessage id={problemId} problem={problems[r.id]} />
                </td>
                <td>
                  <input
                    aria-label={`${what} header ${i + 1} value`}
                    value={r.value}
                    className="mono"
                    onChange={(e) => edit.update(r.id, { value: e.target.value })}
                  />
                </td>
              </>
            );
          }}
        />
      )}
      <button type="button" onClick={() => edit.add({ id: newRowId(), name: '', value: '' })}>
        Add header
      </button>
    </div>
  );
}
