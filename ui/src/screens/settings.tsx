// Placeholder: replaced by the screen's implementation.
export function SettingsScreen() {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">settings</h1>
    </section>
  );
}
