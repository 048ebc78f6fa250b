// Placeholder: replaced by the screen's implementation.
export function LicenseScreen() {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">license</h1>
    </section>
  );
}
