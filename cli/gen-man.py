#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man page and the bash completion of timerharness, from its own --help.

    gen-man.py TIMERHARNESS --man FILE.1 --completion FILE [--date YYYY-MM-DD]

Runs `TIMERHARNESS --help` and `TIMERHARNESS <command> --help` for every
command the first lists, so the page says exactly what the command says
(one source: cli/*.c's usage texts), and the completion offers exactly the
options each command's parser takes (timerharness --complete-options: each
parser asked, cli/complete.c) and their values from the tables the commands
read (timerharness --complete-values, asked when a value is completed).
cmake --install runs it on the installed binary, whose help names the
installed files (paths.h), and installs both.
"""
import argparse
import re
import subprocess
import sys


def helptext(th, *args):
    r = subprocess.run([th, *args, "--help"], capture_output=True, text=True)
    text = r.stdout or r.stderr
    if r.returncode != 0 or not text.strip():
        sys.exit(f"gen-man: {th} {' '.join(args)} --help: exit {r.returncode}, nothing printed")
    return text


def commands(top):
    """The commands of the top-level help: the lines '  NAME ...' under 'commands:'."""
    out, inside = [], False
    for line in top.splitlines():
        if line.strip() == "commands:":
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)(\s|$)", line)
            if m:
                out.append(m.group(1))
            elif line and not line.startswith(" "):
                break
    if not out:
        sys.exit("gen-man: the top-level --help lists no commands")
    return out


def options(text):
    seen = []
    for o in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text):
        if o not in seen:
            seen.append(o)
    return seen


def roff(text):
    """Plain text as a roff no-fill block: backslashes as \\e, hyphens as
    minus signs (\\-: an option copied from the page works), a leading dot
    or quote escaped, so nothing the help says is a request. At the left
    margin (.in 0, then back): the help is laid out for 80 columns, and
    man's indent of a section's body would push its lines past them."""
    lines = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace("\\", "\\e").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return ".in 0\n.nf\n" + "\n".join(lines) + "\n.fi\n.in\n"


def man(th, top, cmds, helps, version, date):
    out = [f'.TH TIMERHARNESS 1 "{date}" "timerharness {version}" "User Commands"\n',
           ".SH NAME\n",
           "timerharness \\- the timer_list CFI harness: attacks, fuzzing, the real kernel, the gate\n",
           ".SH SYNOPSIS\n",
           roff(top),
           ".SH DESCRIPTION\n",
           "Each command below is shown as its own\n.B \\-\\-help\nprints it.\n",
           ".SH COMMANDS\n"]
    for c in cmds:
        out.append(f".SS {c}\n")
        out.append(roff(helps[c]))
    out.append(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nno colour on a terminal (no-color.org)\n")
    out.append(".SH SEE ALSO\nThe documentation installed with it (docs/: the outputs, the gate, "
               "the results model).\n")
    return "".join(out)


def parses(th):
    """Every option of every command's parser (timerharness --complete-options,
    cli/complete.c): {parse: [(option, valued)]}, parse a command or "CMD WORD"
    (the word that selects another parser of it), and the parses whose
    operands are files."""
    r = subprocess.run([th, "--complete-options"], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"gen-man: {th} --complete-options: exit {r.returncode}: {r.stderr.strip()}")
    out, files = {}, set()
    for line in r.stdout.splitlines():
        parse, opt, kind = line.split("\t")
        if opt == "-":
            files.add(parse)
        else:
            out.setdefault(parse, []).append((opt, kind == "value"))
    if not out:
        sys.exit("gen-man: --complete-options listed no options")
    return out, files


def top_options(th, top):
    """The options the program takes before a command: of those its help
    names, the ones it answers (exit 0); the others are its commands'."""
    return [o for o in options(top)
            if subprocess.run([th, o], capture_output=True).returncode == 0]


def completion(top_opts, cmds, th):
    """The bash completion: each command's options exactly as its parser
    takes them; an option's values asked of the program when completed
    (--complete-values: configs, toolchains built, variants, formats...)."""
    ps, files = parses(th)
    opts_cases, valued_cases, select = [], [], []
    for parse, opts in ps.items():
        opts_cases.append(f"\t'{parse}') echo '{' '.join(o for o, _ in opts)}' ;;")
        valued = [o for o, v in opts if v]
        if valued:
            valued_cases.append(f"\t'{parse}') echo ' {' '.join(valued)} ' ;;")
        if " " in parse:
            cmd, word = parse.split(" ", 1)
            if word.startswith("-"):
                # An option anywhere on the line selects it (bench --configs).
                select.append(f"\t[[ $cmd == {cmd} ]] && for w in \"${{COMP_WORDS[@]:2}}\"; do\n"
                              f"\t\t[[ $w == {word} || $w == {word}=* ]] && parse='{parse}'\n\tdone")
            else:
                # A subcommand: the word after the command (kernel classify).
                select.append(f"\t[[ $cmd == {cmd} && ${{COMP_WORDS[2]}} == {word} && COMP_CWORD -gt 2 ]]"
                              f" && parse='{parse}'")
    subs = {}
    for parse in ps:
        if " " in parse and not parse.split(" ", 1)[1].startswith("-"):
            c, w = parse.split(" ", 1)
            subs.setdefault(c, []).append(w)
    sub_cases = "\n".join(f"\t{c}) words='{' '.join(w)}' ;;" for c, w in subs.items())
    files_case = "|".join(f"'{p}'" for p in sorted(files)) or "''"
    nl = "\n"
    return f"""# bash completion for timerharness (generated by cli/gen-man.py from the
# commands' parsers: timerharness --complete-options; values from the tables
# the commands read: timerharness --complete-values, asked when completed)
_timerharness_opts()
{{
	case $1 in
{nl.join(opts_cases)}
	esac
}}
_timerharness_valued()
{{
	case $1 in
{nl.join(valued_cases)}
	esac
}}
_timerharness()
{{
	local th cur prev cmd parse opt vals root w words i
	th=${{COMP_WORDS[0]}}
	cur=${{COMP_WORDS[COMP_CWORD]}}
	prev=${{COMP_WORDS[COMP_CWORD-1]}}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W '{" ".join(cmds)} {" ".join(top_opts)}' -- "$cur"))
		return
	fi
	cmd=${{COMP_WORDS[1]}}
	parse=$cmd
{nl.join(select)}
	# The option whose value is completed: --opt VALUE, or --opt=VALUE
	# (bash splits the word at '=').
	opt=
	if [[ $cur == = ]]; then
		opt=$prev
		cur=
	elif [[ $prev == = && $COMP_CWORD -gt 2 ]]; then
		opt=${{COMP_WORDS[COMP_CWORD-2]}}
	elif [[ $prev == -* ]]; then
		opt=$prev
	fi
	if [[ -n $opt && $(_timerharness_valued "$parse") == *" $opt "* ]]; then
		root=
		for ((i = 2; i < COMP_CWORD; i++)); do
			w=${{COMP_WORDS[i]}}
			if [[ $w == --build-root ]]; then
				root=${{COMP_WORDS[i+1]}}
				[[ $root == = ]] && root=${{COMP_WORDS[i+2]}}
			fi
		done
		vals=$("$th" --complete-values "$parse" "$opt" ${{root:+"$root"}} 2>/dev/null)
		case $vals in
		-f) COMPREPLY=($(compgen -f -- "$cur")) ;;
		-d) COMPREPLY=($(compgen -d -- "$cur")) ;;
		'') ;;
		*)
			# A list: the item after the last comma.
			if [[ $cur == *,* ]]; then
				COMPREPLY=($(compgen -P "${{cur%,*}}," -W "$vals" -- "${{cur##*,}}"))
			else
				COMPREPLY=($(compgen -W "$vals" -- "$cur"))
			fi ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_timerharness_opts "$parse")" -- "$cur"))
		return
	fi
	words=
	if [ "$COMP_CWORD" -eq 2 ]; then
		case $cmd in
{sub_cases}
		esac
	fi
	case $parse in
	{files_case}) COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur")) ;;
	*) COMPREPLY=($(compgen -W "$words $(_timerharness_opts "$parse")" -- "$cur")) ;;
	esac
}}
complete -o filenames -F _timerharness timerharness
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("th")
    ap.add_argument("--man", required=True)
    ap.add_argument("--completion", required=True)
    ap.add_argument("--date", default="")
    a = ap.parse_args()
    top = helptext(a.th)
    cmds = commands(top)
    helps = {c: helptext(a.th, c) for c in cmds}
    v = subprocess.run([a.th, "--version"], capture_output=True, text=True).stdout.split()
    version = v[-1] if v else "?"
    with open(a.man, "w") as f:
        f.write(man(a.th, top, cmds, helps, version, a.date or "timerharness " + version))
    with open(a.completion, "w") as f:
        f.write(completion(top_options(a.th, top), cmds, a.th))
    return 0


if __name__ == "__main__":
    sys.exit(main())
