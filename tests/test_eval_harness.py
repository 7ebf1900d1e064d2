"""The evaluation harness end to end on a tiny generated task, every figure computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import ScriptedGenerator

from assistant.config import PipelineOptions
from assistant.eval.answers import (
    Models,
    ReplayGenerator,
    retrieval_top3,
    run_answers,
    stuffer,
    summarize_answers,
)
from assistant.eval.hotpot import Haystack, Question
from assistant.eval.metrics import latency_stats, percentile
from assistant.eval.recall import recall_metrics, run_recall, split_questions, summarize
from assistant.eval.report import answers_table, bar_plot, recall_table, write
from assistant.eval.tasks import Task, join_passages
from assistant.models.base import GenerationRequest
from assistant.ttrag.context import build_context

TOPICS = [
    "The lighthouse at Varne Point was built in 1872 by the engineer Agnes Coll and burns paraffin.",
    "Marigold bakery sells rye loaves every Tuesday; its owner, Tomas Reyk, trained in Tallinn.",
    "The comet Halvard-3 returns every 41 years and was last seen from the Atacama desert observatory.",
    "Quarry lake swimming is forbidden after dusk because of the cold currents near the pump house.",
    "The chess club meets in the library annex; its champion in 2019 was a retired postman named Ilse.",
]


@pytest.fixture(scope="module")
def tiny(tokenizer: object) -> tuple[Task, object]:
    doc, spans = join_passages("tiny.txt", TOPICS, seed=3)
    questions = (
        Question("q0", "Who built the lighthouse at Varne Point?", ("Agnes Coll",), (spans[0],)),
        Question("q1", "Where did the owner of Marigold bakery train?", ("Tallinn",), (spans[1],)),
        Question("q2", "How often does comet Halvard-3 return?", ("every 41 years",), (spans[2],)),
        Question("q3", "Who was the chess club champion in 2019?", ("Ilse",), (spans[4],), key="Ilse"),
    )
    task = Task("tiny", Haystack(doc, questions), key_targets=True)
    return task, build_context([doc], tokenizer, chunk_tokens=30)  # ~21-token paragraphs: one chunk each


def test_percentiles_by_hand() -> None:
    xs = [4.0, 1.0, 3.0, 2.0]
    assert percentile(xs, 50) == 2.5                      # halfway between 2 and 3
    assert percentile(xs, 95) == pytest.approx(3.85)      # position 2.85 in [1, 2, 3, 4]
    assert percentile(xs, 99) == pytest.approx(3.97)
    stats = latency_stats(xs)
    assert (stats["mean"], stats["p50"], stats["n"]) == (2.5, 2.5, 4.0)
    assert np.isclose(percentile(xs, 95), np.percentile(xs, 95))


def test_recall_metrics_by_hand() -> None:
    # q1: gold ranked 1 and 4; q2: one gold missed, the other ranked 2
    m = recall_metrics([[1, 4], [0, 2]])
    assert (m["R@1"], m["R@3"], m["R@10"]) == (0.25, 0.5, 0.75)
    assert m["all@3"] == 0.0                              # neither question has both gold in the top 3
    assert m["MRR"] == pytest.approx((1 / 1 + 1 / 2) / 2)
    assert recall_metrics([[2], [3]])["all@3"] == 1.0


def test_split_is_seeded_halves() -> None:
    qs = [Question(f"q{i}", "?", ("a",), ((0, 1),)) for i in range(10)]
    a, b = split_questions(qs, 10, seed=1), split_questions(qs, 10, seed=1)
    assert [q.id for q, _ in a] == [q.id for q, _ in b]
    assert [s for _, s in a] == ["dev"] * 5 + ["test"] * 5
    assert {q.id for q, _ in a} == {q.id for q in qs}
    assert [q.id for q, _ in split_questions(qs, 10, seed=2)] != [q.id for q, _ in a]


def test_recall_run_on_tiny_task(tiny: tuple[Task, object]) -> None:
    task, ctx = tiny
    assert len(ctx.chunks) == len(TOPICS)  # one paragraph per chunk
    run, sample = run_recall(task, ctx, None, None, limit=4, seed=0)
    res = summarize(run)
    # every question names its paragraph's rare words: BM25 ranks the gold paragraph first
    assert res["bm25"]["all"]["R@1"] == 1.0
    assert res["bm25"]["all"]["n"] == 4.0
    # the exact scan runs only for questions with a key (q3: "Ilse"), and finds its paragraph first
    assert res["exact scan"]["all"]["n"] == 1.0 and res["exact scan"]["all"]["MRR"] == 1.0
    assert sorted(s for _, s in sample) == ["dev", "dev", "test", "test"]
    assert set(res) == {"bm25", "exact scan"}  # no embedder: no dense or CE systems
    table = recall_table(res, ["bm25"], ["all"])
    assert table[2].startswith("| bm25 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 |")


def test_recall_run_with_models_has_every_system(tiny: tuple[Task, object], embedder: object,
                                                 encoder: object) -> None:
    task, ctx = tiny
    run, _ = run_recall(task, ctx, embedder, encoder, limit=4, layers=(-1, -2))  # type: ignore[arg-type]
    res = summarize(run)
    assert {"dense-everything", "dense10", "rrf20", "dense10 + CE alone mean L6", "rrf20 + CE fused.25 maxsim L5"} \
        <= set(res)
    assert run.one_off["dense-everything: embed every chunk"] > 0
    assert res["dense-everything"]["all"]["R@1"] == 1.0


NONE = json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})


def answer_script(request: GenerationRequest) -> str:
    """A reader of ours: answers only when the passage holding the answer is in the prompt."""
    for marker, short in (("Agnes Coll", "Agnes Coll"), ("trained in Tallinn", "Tallinn"),
                          ("every 41 years", "every 41 years"), ("named Ilse", "Ilse")):
        if marker in request.user:
            return json.dumps({"found": True, "passage": 1, "short_answer": short, "answer": f"It is {short}."})
    return NONE


def test_answers_scored_and_replayed(tiny: tuple[Task, object]) -> None:
    task, ctx = tiny
    scripted = ScriptedGenerator(answer_script)
    gen = ReplayGenerator(scripted)
    opts = PipelineOptions(ce_top_k=1)  # read only the top chunk, so a wrong ranking is a wrong answer
    systems = {"retrieval": retrieval_top3, "again": retrieval_top3, "stuff": stuffer(10_000, seed=0)}
    out = run_answers(ctx, task.haystack.questions, Models(gen, None, None), systems, opts)
    summary = summarize_answers(out)
    assert summary["retrieval"]["EM"] == 1.0 and summary["retrieval"]["not_found"] == 0.0
    assert summary["retrieval"]["supported"] == 1.0  # each short answer stands in the passage it cites
    assert summary["retrieval"]["R@3 first read"] == 1.0
    # the second system read exactly the same passages: every call replayed, with the same usage
    assert gen.replayed == 4
    assert len(scripted.requests) == 4 + 4  # retrieval (4) + stuff (4 prompts with all 5 chunks, shuffled)
    assert [o.llm_s for o in out["again"]] == [o.llm_s for o in out["retrieval"]]
    assert [o.prompt_tokens for o in out["again"]] == [o.prompt_tokens for o in out["retrieval"]]
    # stuffing with a budget above the haystack reads every chunk: all gold is read
    assert summary["stuff"]["gold ever read"] == 1.0
    assert all(len(s.user) > len(out["retrieval"][0].reply) for s in scripted.requests)


def test_not_found_scores_zero(tiny: tuple[Task, object]) -> None:
    task, ctx = tiny
    gen = ReplayGenerator(ScriptedGenerator(lambda r: NONE))
    out = run_answers(ctx, task.haystack.questions[:2], Models(gen, None, None), {"r": retrieval_top3})
    s = summarize_answers(out)["r"]
    assert (s["EM"], s["F1"], s["contained"], s["not_found"]) == (0.0, 0.0, 0.0, 1.0)
    assert s["supported"] is None and s["not_found_unanswerable"] is None  # no answers, no unanswerable questions
    assert answers_table({"r": s})[2].startswith("| r | 2 | 0.000 | 0.000 | 0.000 | 0.000 | 1.000 | - | - |")


def test_report_files(tmp_path: Path) -> None:
    md, js = write(tmp_path / "out" / "r", ["# t", "x"], {"a": 1.5})
    assert md.read_text() == "# t\nx\n" and json.loads(js.read_text()) == {"a": 1.5}
    pytest.importorskip("matplotlib")
    png = bar_plot(tmp_path / "p.png", "t", {"a": {"R@3": 0.5}, "b": {"R@3": 0.75}}, "recall")
    assert png is not None and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tasks_from_shared_data(data_root: Path) -> None:
    from assistant.eval.tasks import kv, needle, nq

    for task in (kv(data_root, records=5), needle(data_root, needles=5), nq(data_root)):
        text = task.haystack.document.text
        for q in task.haystack.questions[:50]:
            gold = " ".join(text[s:e] for s, e in q.gold_spans).lower()
            assert any(a.lower() in gold for a in q.answers), (task.name, q.id)
    assert len(kv(data_root, records=5).haystack.questions) == 5
    assert len(needle(data_root, needles=5).haystack.questions) == 5


def test_eval_command_without_data(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.cli import main

    assert main(["eval", "recall", "--data", str(tmp_path / "absent")]) == 1
    assert "evaluation data not found" in capsys.readouterr().err
    monkeypatch.delenv("ASSISTANT_EVAL_DATA", raising=False)
    assert main(["eval", "recall"]) == 1  # no default folder outside the project
    assert "pass --data DIR" in capsys.readouterr().err


def test_layer_states_match_the_last_layer(encoder: object) -> None:
    chunks = ["The comet returns every 41 years.", "Rye loaves on Tuesday."]
    last = encoder.joint_states("When does the comet return?", chunks)  # type: ignore[attr-defined]
    at = encoder.joint_states_at("When does the comet return?", chunks, [-1, 0])  # type: ignore[attr-defined]
    assert np.allclose(at[0].hidden, last.hidden, atol=1e-5)
    assert at[1].hidden.shape == last.hidden.shape and not np.allclose(at[1].hidden, last.hidden)
    assert np.array_equal(at[1].chunk_mask, last.chunk_mask)


def test_recall_report_from_json(tmp_path: Path, tiny: tuple[Task, object],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main
    from assistant.cli.evaluate import render_recall

    task, ctx = tiny
    run, _ = run_recall(task, ctx, None, None, limit=4)
    data = {"command": "test", "machine": "m", "task": "tiny", "tokens": 100, "chunks": 5, "questions": 4,
            "scored": 4, "chunk_index_s": 0.1, "date": "d", "peak_rss_mb": 1.0, "one_off_s": {},
            "results": summarize(run), "stage_latency": {}}
    render_recall(tmp_path / "r", data)
    md = (tmp_path / "r.md").read_text()
    assert "4 of 4 questions scored" in md and "Too few questions per split (2)" in md
    assert "`exact scan`" in md and "`dense-everything`" not in md  # the legend lists only systems that ran
    (tmp_path / "r.md").unlink()
    assert main(["eval", "report", str(tmp_path / "r.json")]) == 0  # redrawn from the JSON alone
    assert (tmp_path / "r.md").read_text() == md
    assert main(["eval", "recall", "--task", "kv", "--data", str(tmp_path)]) == 1
    assert "kv-retrieval-75_keys.jsonl.gz missing" in capsys.readouterr().err


def test_the_sample_contract_is_scored_by_half(tmp_path: Path) -> None:
    """The contract's questions split into disjoint dev and test halves that cover them all: settings are
    chosen on its dev half like any task's, and its test half is read for the report."""
    from assistant.eval.recall import scored_questions
    from assistant.eval.tasks import contract

    task = contract(tmp_path)
    every = {q.id for q in task.haystack.questions}
    dev = {q.id for q in scored_questions(task, 100, half="dev")}
    test = {q.id for q in scored_questions(task, 100, half="test")}
    assert dev and test and not dev & test and dev | test == every


def test_variations_parse_to_typed_options_and_refuse_what_is_not_one() -> None:
    from assistant.eval.ablation import parse_variations

    assert parse_variations(["max_rewrites=1,0", "router=false", "min_coverage=0"]) == {
        "max_rewrites=1": {"max_rewrites": 1}, "max_rewrites=0": {"max_rewrites": 0},
        "router=false": {"router": False}, "min_coverage=0": {"min_coverage": 0.0}}
    for bad, why in (("max_rewrites", "OPTION=VALUE"), ("rewrites=1", "no pipeline option 'rewrites'"),
                     ("router=maybe", "not true or false"), ("max_rewrites=two", "not a int")):
        with pytest.raises(ValueError, match=why):
            parse_variations([bad])
    with pytest.raises(ValueError, match=r"^--set 'router=maybe'"):  # the base's options name their flag
        parse_variations(["router=maybe"], flag="--set")


def test_ablation_rows_score_each_variation_against_the_full_pipeline_question_by_question() -> None:
    from assistant.eval.ablation import ablation_table
    from assistant.eval.answers import Outcome

    def outcome(contained: float, found: bool, answerable: bool, llm_s: float) -> Outcome:
        return Outcome("q", "x", found, answerable, False, 0.0, 0.0, 0.0, contained, [], [], 2, 10, 1.0, llm_s)

    # full: right on q1 (answerable), right on q2 (absent, not found); the variation loses q1, wins nothing
    full = [outcome(1.0, True, True, 9.0), outcome(0.0, False, False, 19.0)]
    fewer = [outcome(0.0, True, True, 4.0), outcome(0.0, False, False, 4.0)]
    rows = ablation_table("full", {"full": full, "fewer rewrites": fewer})
    assert rows[-2].startswith("| full | 1.000 | — | 0 / 0 | 15.0 | 1.00 | 2.0 |")
    assert rows[-1].startswith("| fewer rewrites | 0.500 | -0.500 [-1.00, +0.00] | 0 / 1 | 5.0 | 0.33 |")
    judged = ablation_table("full", {"full": full, "fewer rewrites": fewer},
                            {"full": [False, True], "fewer rewrites": [True, True]})
    assert "lawyer" in judged[0] and judged[-1].startswith("| fewer rewrites | 1.000 | +0.500")


def test_a_replayed_call_gives_back_the_readers_confidence_too() -> None:
    # A threshold on P(found) ablated against the full pipeline must see the same P on a replayed read.
    class Unsure(ScriptedGenerator):
        def stream(self, request: GenerationRequest) -> object:  # type: ignore[override]
            yield from super().stream(request)
            self.boolean_probs = [0.5 + len(request.user) / 100]

    class Small(ScriptedGenerator):
        context_window = 512  # type: ignore[assignment]

    assert ReplayGenerator(Small(lambda r: NONE)).context_window == 512  # its reads are cut to fit the reader's
    gen = ReplayGenerator(Unsure(lambda r: NONE))
    request = GenerationRequest("s", "u" * 20, max_tokens=8, purpose="answer")
    assert "".join(gen.stream(request)) == NONE and gen.boolean_probs == [0.7]
    "".join(gen.stream(GenerationRequest("s", "u", max_tokens=8, purpose="answer")))
    assert gen.boolean_probs == [0.51]
    assert "".join(gen.stream(request)) == NONE and gen.replayed == 1 and gen.boolean_probs == [0.7]
