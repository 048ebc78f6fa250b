import { useId } from 'react';
import { rowListEdits } from '../components/row-list';
import { FieldMessage, invalidProps } from './fields';
import {
  newRuleRow,
  OP_LABELS,
  RULE_OPS,
  RULE_SOURCES,
  SOURCE_LABELS,
  type RuleRow,
} from './variation-model';

/**
 * A variation's rules as rows {source, key, op, value}: all must match for the variation to
 * answer in mode "rules". `exists` takes no value.
 */
export function RulesEditor({
  rows,
  onChange,
  problems,
}: {
  rows: RuleRow[];
  onChange: (rows: RuleRow[]) => void;
  problems: Record<number, string>;
}) {
  const base = useId();
  const edit = rowListEdits<RuleRow>((change) => onChange(change(rows)));
  return (
    <div className="rules-editor">
      {rows.length === 0 ? (
        <p className="hint">
          No rules: chosen only when active, named in X-Mockdev-Variation, or by sequential/random.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Key</th>
              <th scope="col">Condition</th>
              <th scope="col">Value</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const problemId = `${base}-${r.id}`;
              return (
                <tr key={r.id}>
                  <td>
                    <select
                      aria-label={`Rule ${i + 1} source`}
                      value={r.source}
                      onChange={(e) => edit.update(r.id, { source: e.target.value as RuleRow['source'] })}
                    >
                      {RULE_SOURCES.map((s) => (
                        <option key={s} value={s}>
                          {SOURCE_LABELS[s]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <input
                      aria-label={`Rule ${i + 1} key`}
                      className="mono"
                      value={r.key}
                      placeholder={r.source === 'body' ? 'user.id' : 'name'}
                      onChange={(e) => edit.update(r.id, { key: e.target.value })}
                      {...invalidProps(problemId, problems[r.id])}
                    />
                    <FieldMessage id={problemId} problem={problems[r.id]} />
                  </td>
                  <td>
                    <select
                      aria-label={`Rule ${i + 1} condition`}
                      value={r.op}
                      onChange={(e) => edit.update(r.id, { op: e.target.value as RuleRow['op'] })}
                    >
                      {RULE_OPS.map((o) => (
                        <option key={o} value={o}>
                          {OP_LABELS[o]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {r.op !== 'exists' && (
                      <input
                        aria-label={`Rule ${i + 1} value`}
                        className="mono"
                        value={r.value}
                        onChange={(e) => edit.update(r.id, { value: e.target.value })}
                      />
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Remove rule ${i + 1}`}
                      onClick={() => edit.remove(r.id)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" onClick={() => edit.add(newRuleRow())}>
        Add rule
      </button>
    </div>
  );
}
