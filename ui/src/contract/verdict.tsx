import type { RequestRecord } from '../types';
import { plural, type Spot } from './locate';

const sideName = (side: Spot['in']) => (side === 'request' ? 'request' : 'response');

/**
 * A logged request's contract facts (entries of its detail's list): the live check's verdict with
 * each violation, and the field a link from the Contract screen's validation points at.
 */
export function ContractFacts({ record, spot }: { record: RequestRecord; spot?: Spot }) {
  const verdict = record.contract;
  if (!verdict && !spot) return null;
  return (
    <>
      <dt>Contract</dt>
      <dd>
        {verdict &&
          (verdict.ok ? (
            <span className="contract-ok">Keeps to the contract (checked live).</span>
          ) : (
            <>
              <span className="contract-failed">
                {plural(verdict.violations.length, 'violation')} (checked live):
              </span>
              <ul className="contract-violations" aria-label="Contract violations">
                {verdict.violations.map((v, i) => (
                  <li key={i}>
                    <code>
                      {sideName(v.in)} {v.location}
                    </code>{' '}
                    {v.message}
                  </li>
                ))}
              </ul>
            </>
          ))}
        {verdict?.notChecked && <p className="muted">Not checked: {verdict.notChecked}</p>}
        {spot && (
          <p className="contract-spot">
            Marked below: the {sideName(spot.in)}’s <code>{spot.location}</code>, where the contract
            validation found a violation.
          </p>
        )}
      </dd>
    </>
  );
}

/** Every spot to mark in a request's exchange: its live violations and the linked one. */
export function spotsOf(record: RequestRecord, spot?: Spot): Spot[] {
  const live = record.contract?.violations.map((v) => ({ in: v.in, location: v.location })) ?? [];
  return spot ? [...live, spot] : live;
}
