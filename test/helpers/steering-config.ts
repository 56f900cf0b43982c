// A config.yaml with both kinds of routes and comments, for the steering tests (store, editor, terminal).
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
