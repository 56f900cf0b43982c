// The routing as the parent agent reads it: the `routes` tool's answer and the route field of
// `delegate`'s input schema (an enum of the route names in config order, described by what the
// operator wrote about each). Never a key, and never a base_url (an endpoint URL may carry one).
import type {DelegationConfig, Route} from '../core/types.js';
import {activeRoutes, builtinRoute} from '../core/plan/routing.js';
import {terminalSafe} from '../core/output/visible-text.js';

export type RouteInfo = {
	name: string;
	description: string;
	model?: string;
	provider?: string;
	reasoning_effort?: string;
	/** A profile route: the profile the task runs as, and the model its own config names (if any). */
	profile?: string;
	profile_model?: string;
};

export type RoutesView = {
	mode: DelegationConfig['mode'];
	/** The task field that names a route in this mode; null in the built-in mode (no choice). */
	route_field: 'option' | 'profile' | null;
	routes: RouteInfo[];
	default: string | null;
};

function routeInfo(route: Route): RouteInfo {
	const info: RouteInfo = {name: terminalSafe(route.name), description: terminalSafe(route.description)};
	if (route.kind === 'profile') {
		info.profile = terminalSafe(route.name);
		if (route.configured_model) info.profile_model = terminalSafe(route.configured_model);
		return info;
	}

	info.model = terminalSafe(route.model);
	if (route.provider) info.provider = terminalSafe(route.provider);
	if (route.reasoning_effort) info.reasoning_effort = route.reasoning_effort;
	return info;
}

export function routesView(delegation: DelegationConfig): RoutesView {
	if (delegation.mode === 'default') {
		const builtin = builtinRoute(delegation);
		return {mode: 'default', route_field: null, routes: builtin ? [routeInfo(builtin)] : [], default: builtin ? builtin.name : null};
	}

	const field = delegation.mode === 'model_map' ? 'option' : 'profile';
	const fallback = delegation.mode === 'model_map' ? delegation.modelMap.default : delegation.profileRoutes.default;
	return {mode: delegation.mode, route_field: field, routes: activeRoutes(delegation).map(routeInfo), default: fallback ? terminalSafe(fallback) : null};
}

/** The JSON Schema of the route field, or undefined when the mode offers no choice (or no route). */
export function routeFieldSchema(view: RoutesView): {field: 'option' | 'profile'; schema: Record<string, unknown>} | undefined {
	if (view.route_field === null || view.routes.length === 0) return undefined;
	const lines = view.routes.map(route => `- ${route.name}: ${route.description}`);
	const fallback = view.default ? `Leave it out to use the default route (${view.default}), or the route the task's characteristic maps to.` : 'Leave it out to let the task\'s characteristic (or its goal\'s words) choose.';
	const what = view.route_field === 'option' ? 'The model route to run this task on' : 'The Hermes profile to run this task as';
	return {
		field: view.route_field,
		schema: {type: 'string', enum: view.routes.map(route => route.name), description: `${what}. Choose by these descriptions:\n${lines.join('\n')}\n${fallback}`},
	};
}

/** One signature of what the agent reads about the routing: a change means the tool list changed. */
export function routingSignature(view: RoutesView): string {
	return JSON.stringify(view);
}
