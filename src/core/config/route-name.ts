// Which model_map route names hermes-delegate accepts. A name is what a task file's `option`
// names, what a pane and `config show` print, and an argument to `config route NAME`: so a name
// is a plain word that needs no quoting in JSON, YAML or a shell and shows the same on every
// terminal: letters, digits, "_", "-", ".", starting with a letter or digit, at most 64. (Profile
// routes follow Hermes's own profile-name rule instead, see normaliseProfileName.)
const routeNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function routeNameProblem(name: string): {message: string; fix: string} | undefined {
	if (routeNamePattern.test(name.trim())) {
		return undefined;
	}

	return {
		message: `${JSON.stringify(name)} is not a valid route name`,
		fix: 'route names are 1-64 characters of letters, digits, "_", "-" and ".", starting with a letter or digit (tasks name them in `option`)',
	};
}
