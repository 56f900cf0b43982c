// A config.yaml with both kinds of routes and comments, for the steering tests (store, editor, terminal), and the keys that re-route a task on it.
export const steeringConfig = `# Hermes config, with comments that must survive
model: anthropic/claude-sonnet-5
delegation:
  backend: model_map   # the active mode
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick: lookups, summaries."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Slow and careful: hard debugging and design work."
          provider: anthropic
          model: claude-opus-5
      default: fast
    profile_routes:
      profiles:
        - name: coder
          description: "Writes and reviews code."
        - name: writer
          description: "Writes documentation and prose."
      default: coder
`;

type KeyedScreen = {sendKeys(...keys: string[]): void; waitForScreen(match: RegExp, options?: {message?: string}): Promise<string>};

/** From the first pane: focus t02 (Tab), R, pick the second route ("deep" in steeringConfig), Enter. */
export async function rerouteT02ToSecondRoute(screen: KeyedScreen, pane: string): Promise<void> {
	screen.sendKeys('Tab');
	await screen.waitForScreen(new RegExp(`┃ t02 ${pane}`));
	screen.sendKeys('R');
	await screen.waitForScreen(new RegExp(`Re-route t02 ${pane} · model routes`), {message: 'the route picker'});
	screen.sendKeys('Down');
	await screen.waitForScreen(/▸ deep/);
	screen.sendKeys('Enter');
}
