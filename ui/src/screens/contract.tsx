import { useEffect, useState } from 'react';
import { ApiError, enc } from '../api/client';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { ProNote } from '../components/pro-note';
import { ContractFactsView } from '../contract/contract-facts';
import '../contract/contract.css';
import { CoverageTable } from '../contract/coverage-table';
import { ImportContract } from '../contract/import-form';
import { ValidatePanel } from '../contract/validate-panel';
import '../license/license.css';
import { licenseRequired } from '../tunnels/use-tunnel';
import type { ContractCoverage, ContractInfo } from '../types';
import type { ProjectScreenProps } from './registry';

/**
 * Contract testing (docs/contract.md; Pro), as `mockdev contract …`: the project's contract
 * (an OpenAPI document: its title, version, source), importing it from a URL or a file, Validate
 * now with the violations grouped by operation (each linking to its request in the log), the
 * coverage of its operations, and the live checking switch.
 */
export function ContractScreen({ project }: ProjectScreenProps) {
  const base = `/projects/${enc(project.id)}/contract`;
  const fetched = useData<ContractInfo>(base);
  // What an import or the switch answered is shown at once (the same contract GET answers).
  const [changed, setChanged] = useState<ContractInfo>();
  useEffect(() => setChanged(undefined), [fetched.data]);
  const info = changed ?? fetched.data;
  const coverage = useData<ContractCoverage>(info ? `${base}/status` : null);
  const gated = licenseRequired(fetched.error);
  const none = fetched.error instanceof ApiError && fetched.error.code === 'NOT_FOUND';

  return (
    <section className="screen contract-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Contract of {project.name}</h1>
      <p className="hint">
        The request log checked against the API’s OpenAPI document: each request and its response, field by
        field (the operation, parameters, bodies, statuses, headers), as{' '}
        <code>mockdev contract validate</code> does in CI.
      </p>
      {gated ? (
        <ProNote title="Contract testing needs a Pro license.">
          Pro checks the logged requests and their responses against an OpenAPI 3.1, 3.0 or Swagger 2.0
          document, lists each violation with the field that breaks it, shows which operations the traffic
          covers, checks requests live as they are logged, and writes JUnit reports for CI.
        </ProNote>
      ) : (
        <>
          <section aria-labelledby="contract-now">
            <h2 id="contract-now">Contract</h2>
            {info ? (
              <ContractFactsView projectId={project.id} info={info} onChanged={setChanged} />
            ) : none ? (
              <div className="empty-state">
                <p>
                  {project.name} has no contract yet: import its OpenAPI document below (or run{' '}
                  <code>mockdev contract import {project.name} URL</code>).
                </p>
              </div>
            ) : (
              <>
                <ErrorMessage error={fetched.error} />
                {!fetched.error && <p className="loading">Loading…</p>}
              </>
            )}
          </section>
          {info && (
            <>
              <section aria-labelledby="contract-validate">
                <h2 id="contract-validate">Validate</h2>
                {/* a new document: the report of the one before goes */}
                <ValidatePanel key={info.importedAt} projectId={project.id} onValidated={coverage.reload} />
              </section>
              <section aria-labelledby="contract-coverage">
                <h2 id="contract-coverage">Coverage</h2>
                <ErrorMessage error={coverage.error} />
                {coverage.data ? (
                  <CoverageTable coverage={coverage.data} />
                ) : (
                  !coverage.error && <p className="loading">Loading…</p>
                )}
              </section>
            </>
          )}
          <section aria-labelledby="contract-import">
            <h2 id="contract-import">{info ? 'Replace the contract' : 'Import a contract'}</h2>
            <ImportContract
              projectId={project.id}
              projectName={project.name}
              replacing={info !== undefined}
              onImported={(c) => {
                setChanged(c);
                coverage.reload();
              }}
            />
          </section>
        </>
      )}
    </section>
  );
}
