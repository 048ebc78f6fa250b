import type { ProjectListing } from '../types';

/**
 * The screens of features this version of mockdev does not have yet: each is in the navigation
 * and says what it will do and that it is not built, instead of being missing.
 */
const FEATURES: Record<string, { title: string; what: string; cli: string }> = {
  contract: {
    title: 'Contract testing',
    what: 'Contract testing validates the logged requests against an OpenAPI document and lists each violation, with the coverage of its operations.',
    cli: 'mockdev contract',
  },
};

export function NotBuiltScreen({ feature, project }: { feature: string; project?: ProjectListing }) {
  const f = FEATURES[feature] ?? { title: feature, what: '', cli: '' };
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">{f.title}</h1>
      <div className="not-built" role="note">
        <p>
          <strong>Not built yet.</strong> {f.title} {f.title.endsWith('s') ? 'are' : 'is'} not part of this
          version of mockdev: there is no <code>{f.cli}</code> command yet, and nothing here can change
          {project ? ` ${project.name}` : ''}.
        </p>
        <p>{f.what}</p>
      </div>
    </section>
  );
}
