// model_map with two routes (fast, the default, and deep) and no config file: the delegation the
// runner tests plan their batches on.
import type {DelegationConfig} from '../../src/core/types.js';

export const twoModelRoutes: DelegationConfig = {
	mode: 'model_map',
	modelMap: {
		options: [
			{kind: 'model', name: 'fast', description: 'Cheap and quick lookups.', provider: 'openrouter', model: 'google/gemini-3-flash-preview'},
			{kind: 'model', name: 'deep', description: 'Slow and careful design.', provider: 'anthropic', model: 'claude-opus-5'},
		],
		default: 'fast',
	},
	profileRoutes: {profiles: []},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};
