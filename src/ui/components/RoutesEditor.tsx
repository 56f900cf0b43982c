// The routes editor (`r`): the active mode's routes, each with its description, what it runs
// (model, provider, reasoning effort, or the profile), whether it is the default, and how many
// of this batch's tasks are on it. The selected route's description, and a model route's model,
// provider and reasoning effort, can be edited in place.
import {Box, Text} from 'ink';
import {reasoningEfforts} from '../../core/types.js';
import {terminalSafe} from '../../core/visible-text.js';
import {routeLoad, type RouteRow, type TextField} from '../../state/routes-editor.js';
import {formatKey} from '../key-descriptor.js';
import type {Bindings, Command} from '../keys.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme.js';
import {TextInput} from './TextInput.js';

const modeTitles = {model_map: 'model routes (model_map)', profile_routes: 'profile routes (profile_routes)', default: 'built-in delegation (default)'} as const;

export function RoutesEditor({width, height, bindings}: {readonly width: number; readonly height: number; readonly bindings: Bindings}) {
	const theme = useTheme();
	const editor = useBatch(state => state.routes);
	const mode = useBatch(state => state.mode);
	const tasks = useBatch(state => state.tasks);
	if (!editor) {
		return null;
	}

	const key = (command: Command) => formatKey(bindings.get(command)?.[0] ?? '?');
	const picking = editor.pickFor === null ? undefined : tasks[editor.pickFor];
	const adding = editor.adding;
	const hint = editor.profileChoices
		? `${key('routes.up')}${key('routes.down')} select · ${key('pick.submit')} takes the profile · ${key('routes.close')} goes back`
		: adding
		? `${key('field.submit')} ${adding.step + 1 < adding.steps.length ? 'next' : 'saves'} · ${key('field.cancel')} cancels the new route · step ${adding.step + 1} of ${adding.steps.length}`
		: picking && editor.field
		? `${key('field.submit')} puts ${picking.id} back in the queue on that model · ${key('field.cancel')} goes back to the routes · ←→ Home End move · Ctrl+W deletes a word`
		: picking && editor.routes.length === 0
		? `${key('pick.submit')} asks for the model to run ${picking.id} on · ${key('routes.close')} cancels`
		: picking
		? `${key('routes.up')}${key('routes.down')} select · ${key('pick.submit')} puts ${picking.id} back in the queue on that route (or asks the model) · ${key('routes.close')} cancels`
		: editor.field
		? `${key('field.submit')} saves · ${key('field.cancel')} cancels · ${editor.fieldName === 'reasoning_effort' ? `one of ${reasoningEfforts.join(', ')}` : '←→ Home End move · Ctrl+W deletes a word'}`
		: `${key('routes.up')}${key('routes.down')} select · ${key('routes.edit')} description · ${key('routes.model')} model · ${key('routes.provider')} provider · ${key('routes.effort')} effort · ${key('routes.default')} default · ${key('routes.add')} add · ${key('routes.remove')} remove · ${key('routes.close')} closes`;
	const inner = Math.max(1, width - 4);
	// Each route takes three lines; the selected one stays in view.
	const perRoute = 3;
	const room = Math.max(1, Math.floor((height - 4 - (adding || editor.profileChoices ? perRoute : 0)) / perRoute));
	// The picker of R has one row after the routes: "explicit model…".
	const rows = editor.routes.length + (picking ? 1 : 0);
	const first = Math.min(Math.max(0, editor.selected - room + 1), Math.max(0, rows - room));
	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle='round' borderColor={theme.colors.border.focused} paddingX={1}>
			<Text wrap='truncate-end' bold color={theme.colors.header.title}>{picking ? `Re-route ${picking.id} ${picking.title} · ${modeTitles[mode]}` : `Routes · ${modeTitles[mode]} · saved into config.yaml`}</Text>
			<Text wrap='truncate-end' color={theme.colors.text.muted}>{hint}</Text>
			{editor.profileChoices && <ProfilePicker choices={editor.profileChoices} choice={editor.choice} width={inner}/>}
			{adding && editor.field && (
				<Box flexDirection='column' width={inner}>
					<Text wrap='truncate-end' bold color={theme.colors.text.accent}>{`+ new ${editor.list === 'profile_routes' ? 'profile' : 'model'} route${draftText(adding.values)}`}</Text>
					<Box width={inner}>
						<Text color={theme.colors.text.accent}>{`  ${adding.steps[adding.step]}: `}</Text>
						<TextInput field={editor.field} width={inner - 4 - (adding.steps[adding.step]?.length ?? 0)}/>
					</Box>
					{editor.error ? <Text wrap='truncate-end' color={theme.colors.text.error}>{`  refused: ${editor.error}`}</Text> : <Text> </Text>}
				</Box>
			)}
			{editor.list === null && <Text wrap='wrap' color={theme.colors.text.muted}>{`The built-in mode has no routes: subagents run on Hermes's own delegation settings${picking ? ', or on an explicit model' : ''}. ${key('routing.mode')} on the dashboard switches the mode.`}</Text>}
			{editor.list !== null && editor.routes.length === 0 && <Text color={theme.colors.text.muted}>This mode has no routes.</Text>}
			{editor.routes.slice(first, first + room).map((route, index) => {
				const position = first + index;
				const selected = position === editor.selected;
				return (
					<Box key={route.name} flexDirection='column' width={inner}>
						<Text wrap='truncate-end' bold={selected} color={selected ? theme.colors.text.accent : theme.colors.text.primary}>
							{`${selected ? '▸' : ' '} ${route.name}${route.isDefault ? ' (default)' : ''} · ${runsOn(route)} · ${loadText(routeLoad(tasks, route.name))}`}
						</Text>
						<Box width={inner}>
							<Text>{'  '}</Text>
							{selected && editor.field && !adding && editor.fieldName !== 'description' && <Text color={theme.colors.text.accent}>{`${editor.fieldName}: `}</Text>}
							{selected && editor.field && !adding
								? <TextInput field={editor.field} width={inner - 2 - (editor.fieldName === 'description' ? 0 : editor.fieldName.length + 2)}/>
								: <Text wrap='truncate-end' color={theme.colors.text.muted}>{route.description}</Text>}
						</Box>
						{selected && editor.error && !adding
							? <Text wrap='truncate-end' color={theme.colors.text.error}>{`  refused: ${editor.error}`}</Text>
							: <Text> </Text>}
					</Box>
				);
			})}
			{picking && first + room > editor.routes.length && <ExplicitModelRow selected={editor.selected === editor.routes.length} field={editor.field} error={editor.error} width={inner}/>}
		</Box>
	);
}

/** The picker's last row: a model name typed by the operator instead of a route. */
function ExplicitModelRow({selected, field, error, width}: {readonly selected: boolean; readonly field: TextField | null; readonly error: string | null; readonly width: number}) {
	const theme = useTheme();
	return (
		<Box flexDirection='column' width={width}>
			<Text wrap='truncate-end' bold={selected} color={selected ? theme.colors.text.accent : theme.colors.text.primary}>{`${selected ? '▸' : ' '} explicit model…`}</Text>
			{field
				? (
					<Box width={width}>
						<Text color={theme.colors.text.accent}>{'  model: '}</Text>
						<TextInput field={field} width={width - 9}/>
					</Box>
				)
				: <Text wrap='truncate-end' color={theme.colors.text.muted}>{'  a model name, run as a task file\'s model would be'}</Text>}
			{error ? <Text wrap='truncate-end' color={theme.colors.text.error}>{`  refused: ${error}`}</Text> : <Text> </Text>}
		</Box>
	);
}

function ProfilePicker({choices, choice, width}: {readonly choices: readonly string[]; readonly choice: number; readonly width: number}) {
	const theme = useTheme();
	return (
		<Box flexDirection='column' width={width}>
			<Text wrap='truncate-end' bold color={theme.colors.text.accent}>+ new profile route: which profile?</Text>
			{choices.map((name, index) => (
				<Text key={name} wrap='truncate-end' bold={index === choice} color={index === choice ? theme.colors.text.accent : theme.colors.text.primary}>{`${index === choice ? '▸' : ' '} ${terminalSafe(name)}`}</Text>
			))}
		</Box>
	);
}

function draftText(values: Readonly<Record<string, string | undefined>>): string {
	return Object.entries(values).filter(([, value]) => value !== undefined).map(([name, value]) => ` · ${name} ${value ?? ''}`).join('');
}

function runsOn(route: RouteRow): string {
	if (route.kind === 'profile') {
		return `profile ${route.name}`;
	}

	return [route.model, route.provider, route.reasoningEffort ? `reasoning ${route.reasoningEffort}` : undefined].filter(Boolean).join(' · ');
}

function loadText(load: {queued: number; running: number; done: number}): string {
	return `${load.queued} queued, ${load.running} running, ${load.done} done`;
}
