import { SelectField, TextField } from './fields';
import { DELAY_KINDS, FAULT_CHOICES, type TimingValues } from './timing-model';

/**
 * The delay (fixed, uniform or lognormal) and the fault (with its rate) of an endpoint or a
 * variation, in the response grid. `label` prefixes the labels ("Variation delay").
 */
export function TimingFields({
  values,
  set,
  shown,
  label,
}: {
  values: TimingValues;
  set: <K extends keyof TimingValues>(key: K, value: TimingValues[K]) => void;
  shown: (field: 'delay' | 'fault' | 'faultRate') => string | undefined;
  label: (text: string) => string;
}) {
  const bind = <K extends Exclude<keyof TimingValues, 'delayKind' | 'fault'>>(key: K) => ({
    value: values[key],
    onChange: (v: string) => set(key, v),
  });
  const kind = values.delayKind;
  return (
    <>
      <SelectField
        label={label('Delay')}
        value={kind}
        onChange={(v) => set('delayKind', v as TimingValues['delayKind'])}
        options={DELAY_KINDS.map(([v, t]) => [v, t] as [string, string])}
        problem={kind === 'fixed' ? undefined : shown('delay')}
      />
      {kind === 'fixed' && (
        <TextField
          label={label('Delay (ms)')}
          {...bind('delay')}
          problem={shown('delay')}
          inputMode="numeric"
        />
      )}
      {kind === 'uniform' && (
        <>
          <TextField label={label('Delay from (ms)')} {...bind('delayMin')} inputMode="numeric" />
          <TextField label={label('Delay to (ms)')} {...bind('delayMax')} inputMode="numeric" />
        </>
      )}
      {kind === 'lognormal' && (
        <>
          <TextField label={label('Delay median (ms)')} {...bind('delayMedian')} inputMode="numeric" />
          <TextField
            label={label('Delay spread (sigma)')}
            {...bind('delaySigma')}
            hint="0 to 5; 0.5: the 95th percentile is about 2.3 × the median"
          />
        </>
      )}
      <SelectField
        label={label('Fault')}
        value={values.fault}
        onChange={(v) => set('fault', v as TimingValues['fault'])}
        options={FAULT_CHOICES.map(([v, t]) => [v, t] as [string, string])}
        problem={values.fault === 'drip' ? undefined : shown('fault')}
      />
      {values.fault === 'drip' && (
        <TextField
          label={label('Drip (bytes per second)')}
          {...bind('dripRate')}
          problem={shown('fault')}
          inputMode="numeric"
        />
      )}
      {values.fault !== '' && (
        <TextField
          label={label('Fault rate')}
          {...bind('faultRate')}
          problem={shown('faultRate')}
          hint="0 to 1, the share of requests; empty: every one"
        />
      )}
    </>
  );
}
