import { useId } from 'react';
import { rowListEdits } from '../components/row-list';
import { RowTable } from '../components/row-table';
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
        <RowTable
          columns={['Source', 'Key', 'Condition', 'Value']}
          rows={rows}
          onRemove={edit.remove}
          removeLabel={(_, i) => `Remove rule ${i + 1}`}
          cells={(r, i) => {
            const problemId = `${base}-${r.id}`;
            return (
              <>
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
              </>
            );
          }}
        />
      )}
      <button type="button" onClick={() => edit.add(newRuleRow())}>
        Add rule
      </button>
    </div>
  );
}
