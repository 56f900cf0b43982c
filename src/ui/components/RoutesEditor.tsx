// The routes editor (`r`): the active mode's routes, each with its description, what it runs
// (model, provider, reasoning effort, or the profile), whether it is the default, and how many
// of this batch's tasks are on it. The selected route's description, and a model route's model,
// provider and reasoning effort, can be edited in place. The same rows are R's route picker.
import {Box, Text} from 'ink';
import {reasoningEfforts, type RouteField} from '../../core/types.js';
import {terminalSafe} from '../../core/output/visible-text.js';
import {bodyLayer} from '../../state/overlay.js';
import {routeLoad, type ExplicitModelInput, type RouteRow} from '../../state/routes-editor.js';
import type {TextField} from '../../state/text-field.js';
import {formatKey} from '../keys/key-descriptor.js';
import {useBindings} from '../keys/bindings-context.js';
import type {Command} from '../keys/keys.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme/theme.js';
import {TextInput} from '../text-field/TextInput.js';

const modeTitles = {model_map: 'model routes (model_map)', profile_routes: 'profile routes (profile_routes)', default: 'built-in delegation (default)'} as const;

export function RoutesEditor({width, height}: {readonly width: number; readonly height: number}) {
	const bindings = useBindings();
	const theme = useTheme();
	const layer = useBatch(state => {
		const body = bodyLayer(state.overlay);
		return body?.kind === 'routes' || body?.kind === 'pick' ? body : null;
	});
	const mode = useBatch(state => state.mode);
	const tasks = useBatch(state => state.tasks);
	if (!layer) {
		return null;
	}

	const key = (command: Command) => formatKey(bindings.get(command)?.[0] ?? '?');
	const list = layer.kind === 'routes' ? layer.editor : layer.picker;
	const input = layer.kind === 'routes' ? layer.editor.input : null;
	const picker = layer.kind === 'pick' ? layer.picker : null;
	const picking = picker ? tasks[picker.taskId] : undefined;
	const adding = input?.kind === 'draft' ? input : null;
	const editing = input?.kind === 'field' ? input : null;
	const profiles = input?.kind === 'profiles' ? input : null;
	const explicit = picker?.explicit ?? null;
	const hint = routesHint({key, profiles: profiles !== null, adding, editing, picking, explicit, routeCount: list.routes.length});
	const inner = Math.max(1, width - 4);
	// Each route takes three lines; the selected one stays in view.
	const perRoute = 3;
	const room = Math.max(1, Math.floor((height - 4 - (adding || profiles ? perRoute : 0)) / perRoute));
	// The picker of R has one row after the routes: "explicit model…".
	const rows = list.routes.length + (picking ? 1 : 0);
	const first = Math.min(Math.max(0, list.selected - room + 1), Math.max(0, rows - room));
	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle='round' borderColor={theme.colors.border.focused} paddingX={1}>
			<Text wrap='truncate-end' bold color={theme.colors.header.title}>{picking ? `Re-route ${picking.id} ${picking.title} · ${modeTitles[mode]}` : `Routes · ${modeTitles[mode]} · saved into config.yaml`}</Text>
			<Text wrap='truncate-end' color={theme.colors.text.muted}>{hint}</Text>
			{profiles && <ProfilePicker choices={profiles.choices} choice={profiles.choice} width={inner}/>}
			{adding && (
				<Box flexDirection='column' width={inner}>
					<Text wrap='truncate-end' bold color={theme.colors.text.accent}>{`+ new ${list.list === 'profile_routes' ? 'profile' : 'model'} route${draftText(adding.draft.values)}`}</Text>
					<LabelledField label={adding.draft.steps[adding.draft.step] ?? ''} field={adding.field} width={inner}/>
					{list.error ? <Text wrap='truncate-end' color={theme.colors.text.error}>{`  refused: ${list.error}`}</Text> : <Text> </Text>}
				</Box>
			)}
			{list.list === null && <Text wrap='wrap' color={theme.colors.text.muted}>{`The built-in mode has no routes: subagents run on Hermes's own delegation settings${picking ? ', or on an explicit model' : ''}. ${key('routing.mode')} on the dashboard switches the mode.`}</Text>}
			{list.list !== null && list.routes.length === 0 && <Text color={theme.colors.text.muted}>This mode has no routes.</Text>}
			{list.routes.slice(first, first + room).map((route, index) => {
				const selected = first + index === list.selected;
				return (
					<Box key={route.name} flexDirection='column' width={inner}>
						{/* The counts are what the editor is opened for (where do the tasks go?): on a narrow screen what the route runs gives way to them. */}
						<Box width={inner}>
							<Box flexShrink={1}>
								<Text wrap='truncate-end' bold={selected} color={selected ? theme.colors.text.accent : theme.colors.text.primary}>
									{`${selected ? '▸' : ' '} ${route.name}${route.isDefault ? ' (default)' : ''}${picker?.currentRoute === route.name ? ' (current)' : ''} · ${runsOn(route)}`}
								</Text>
							</Box>
							<Box flexShrink={0}>
								<Text wrap='truncate-end' bold={selected} color={selected ? theme.colors.text.accent : theme.colors.text.primary}>{` · ${loadText(routeLoad(tasks, route.name))}`}</Text>
							</Box>
						</Box>
						{selected && editing
							? <LabelledField label={editing.name === 'description' ? '' : editing.name} field={editing.field} width={inner}/>
							: <Text wrap='truncate-end' color={theme.colors.text.muted}>{`  ${route.description}`}</Text>}
						{selected && list.error && !adding
							? <Text wrap='truncate-end' color={theme.colors.text.error}>{`  refused: ${list.error}`}</Text>
							: <Text> </Text>}
					</Box>
				);
			})}
			{picking && first + room > list.routes.length && <ExplicitModelRow selected={list.selected === list.routes.length} explicit={explicit} error={list.error} width={inner}/>}
		</Box>
	);
}

/** What the field's hint says besides Enter and Esc: an empty value removes an optional key (Hermes's own setting then applies). */
const typing = '←→ Home End move · Ctrl+W deletes a word';

type HintSituation = {
	key: (command: Command) => string;
	/** Choosing the profile of a new profile route. */
	profiles: boolean;
	adding: {readonly draft: {readonly step: number; readonly steps: readonly string[]}} | null;
	editing: {readonly name: RouteField} | null;
	/** The task R re-routes, when the rows are its picker. */
	picking: {readonly id: string} | undefined;
	explicit: ExplicitModelInput | null;
	routeCount: number;
};

/** The keys line under the title: what the keys do in the step the operator is in. */
function routesHint({key, profiles, adding, editing, picking, explicit, routeCount}: HintSituation): string {
	if (profiles) return `${key('routes.up')}${key('routes.down')} select · ${key('pick.submit')} takes the profile · ${key('routes.close')} goes back`;
	if (adding) return `${key('field.submit')} ${adding.draft.step + 1 < adding.draft.steps.length ? 'next' : 'saves'} · ${key('field.cancel')} cancels the new route · step ${adding.draft.step + 1} of ${adding.draft.steps.length}`;
	if (picking) {
		if (explicit?.step === 'model') return `${key('field.submit')} asks its provider next · ${key('field.cancel')} goes back to the routes · ${typing}`;
		if (explicit) return `${key('field.submit')} puts ${picking.id} back in the queue on that model (empty: Hermes's own provider) · ${key('field.cancel')} back to the model`;
		if (routeCount === 0) return `${key('pick.submit')} asks for the model to run ${picking.id} on · ${key('routes.close')} cancels`;
		return `${key('routes.up')}${key('routes.down')} select · ${key('pick.submit')} puts ${picking.id} back in the queue on that route (or asks the model) · ${key('routes.close')} cancels`;
	}

	if (editing) return `${key('field.submit')} saves · ${key('field.cancel')} cancels · ${fieldHints[editing.name] ?? typing}`;
	return `${key('routes.up')}${key('routes.down')} select · ${key('routes.edit')} description · ${key('routes.model')} model · ${key('routes.provider')} provider · ${key('routes.effort')} effort · ${key('routes.default')} default · ${key('routes.add')} add · ${key('routes.remove')} remove · ${key('routes.close')} closes`;
}

const fieldHints: Partial<Record<RouteField, string>> = {
	provider: 'empty removes it (the route then needs a base_url) · ←→ Home End move',
	reasoning_effort: `empty removes it · one of ${reasoningEfforts.join(', ')}`,
};

/** A text field on its own line, after its name (none for a description). */
function LabelledField({label, field, width}: {readonly label: string; readonly field: TextField; readonly width: number}) {
	const theme = useTheme();
	const prefix = label === '' ? '  ' : `  ${label}: `;
	return (
		<Box width={width}>
			<Text color={theme.colors.text.accent}>{prefix}</Text>
			<TextInput field={field} width={width - prefix.length}/>
		</Box>
	);
}

/** The picker's last row: a model name (then its provider) typed by the operator instead of a route. */
function ExplicitModelRow({selected, explicit, error, width}: {readonly selected: boolean; readonly explicit: ExplicitModelInput | null; readonly error: string | null; readonly width: number}) {
	const theme = useTheme();
	return (
		<Box flexDirection='column' width={width}>
			<Text wrap='truncate-end' bold={selected} color={selected ? theme.colors.text.accent : theme.colors.text.primary}>{`${selected ? '▸' : ' '} explicit model…${explicit?.step === 'provider' ? ` ${explicit.model}` : ''}`}</Text>
			{explicit
				? <LabelledField label={explicit.step} field={explicit.field} width={width}/>
				: <Text wrap='truncate-end' color={theme.colors.text.muted}>{'  a model name (and its provider), run as a task file\'s model would be'}</Text>}
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
