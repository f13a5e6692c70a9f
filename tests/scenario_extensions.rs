//! The scenario file's two optional additions, `story` (a guided story's captions) and `session`
//! (what a saved session adds): both read back to what was written, and every fault in them is
//! an error naming its path, as for the contract's own fields.

use serde_json::{json, Value};

use purgatory_playground::scenario::Scenario;

fn base() -> Value {
    json!({
        "name": "x",
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [
            {"at_ms": 0, "action": "pause_follower", "broker": 2},
            {"at_ms": 10, "action": "produce", "id": "p1", "acks": -1,
             "records": [{"topic": "t", "partition": 0, "count": 1}]}
        ],
        "run_until_ms": 100
    })
}

fn error_of(document: &Value) -> String {
    Scenario::from_value(document).unwrap_err().to_string()
}

#[test]
fn a_story_and_a_session_read_back_from_the_canonical_text() {
    let mut document = base();
    document["story"] = json!([
        {"at_ms": 0, "caption": "Broker 2 stops fetching.", "look_at": "cluster", "target": "broker-2"},
        {"at_ms": 10, "caption": "p1 arrives.", "look_at": "purgatory", "request": "p1"}
    ]);
    document["session"] = json!({"at_ms": 50, "selected": "p1", "user_actions": [1], "scenario": "s03-x", "live": true, "story_open": true});
    let scenario = Scenario::from_value(&document).unwrap();
    assert_eq!(scenario.story.len(), 2);
    assert_eq!(scenario.story[0].look_at, "cluster");
    let session = scenario.session.clone().unwrap();
    assert_eq!(
        (
            session.at_ms,
            session.user_actions.clone(),
            session.live,
            session.story_open
        ),
        (50, vec![1], true, true)
    );
    let text = scenario.to_json();
    assert_eq!(Scenario::from_json(&text).unwrap(), scenario);
    assert!(
        text.contains("\n  \"story\": [\n    {\"at_ms\":0,"),
        "{text}"
    );
}

#[test]
fn story_faults_name_their_path() {
    let mut document = base();
    document["story"] = json!([{"at_ms": 0, "caption": "x", "look_at": "purgatroy"}]);
    assert_eq!(
        error_of(&document),
        "story[0].look_at: expected one of \"cluster\", \"purgatory\", \"wheel\", \"codepath\", \
         \"responses\", \"phases\", \"compare\", \"log\", \"metrics\", \"timeline\", found \"purgatroy\"; did you mean \
         \"purgatory\"?"
    );
    document["story"] = json!([
        {"at_ms": 50, "caption": "x", "look_at": "cluster"},
        {"at_ms": 10, "caption": "y", "look_at": "cluster"}
    ]);
    assert_eq!(
        error_of(&document),
        "story[1].at_ms: captions go in time order; this one (10) comes before the previous one (50)"
    );
    document["story"] = json!([{"at_ms": 101, "caption": "x", "look_at": "cluster"}]);
    assert_eq!(
        error_of(&document),
        "story[0].at_ms: expected an integer from 0 to 100 (run_until_ms), found 101"
    );
    document["story"] = json!([{"at_ms": 1, "look_at": "cluster"}]);
    assert_eq!(
        error_of(&document),
        "story[0].caption: required field is missing; expected a non-empty string"
    );
    document["story"] = json!([{"at_ms": 1, "caption": "x", "look_at": "cluster", "colour": 1}]);
    assert!(error_of(&document).starts_with("story[0].colour: unknown field `colour`"));
}

#[test]
fn a_caption_in_chinese_reads_back_and_its_faults_name_their_path() {
    let mut document = base();
    document["story"] = json!([
        {"at_ms": 0, "caption": "Broker 2 stops fetching.", "captions": {"zh-CN": "broker 2 停止 fetch。"}, "look_at": "cluster"},
        {"at_ms": 10, "caption": "p1 arrives.", "look_at": "purgatory"}
    ]);
    let scenario = Scenario::from_value(&document).unwrap();
    assert_eq!(scenario.story[0].captions["zh-CN"], "broker 2 停止 fetch。");
    assert!(scenario.story[1].captions.is_empty());
    let text = scenario.to_json();
    assert_eq!(Scenario::from_json(&text).unwrap(), scenario);
    assert!(
        text.contains(r#""captions":{"zh-CN":"broker 2 停止 fetch。"}"#)
            && text.matches("captions").count() == 1,
        "{text}"
    );

    document["story"] =
        json!([{"at_ms": 0, "caption": "x", "captions": {"zh-cn": "y"}, "look_at": "cluster"}]);
    assert!(
        error_of(&document).starts_with("story[0].captions[\"zh-cn\"]: unknown field `zh-cn`")
            && error_of(&document).contains("did you mean `zh-CN`"),
        "{}",
        error_of(&document)
    );
    document["story"] =
        json!([{"at_ms": 0, "caption": "x", "captions": {"zh-CN": ""}, "look_at": "cluster"}]);
    assert_eq!(
        error_of(&document),
        "story[0].captions[\"zh-CN\"]: expected a non-empty string, found an empty string"
    );
    document["story"] =
        json!([{"at_ms": 0, "caption": "x", "captions": "y", "look_at": "cluster"}]);
    assert!(error_of(&document)
        .starts_with("story[0].captions: expected an object of captions by language"));
}

#[test]
fn session_faults_name_their_path() {
    let mut document = base();
    document["session"] = json!({"at_ms": 5, "selected": "p9"});
    assert_eq!(
        error_of(&document),
        "session.selected: no produce action has the id \"p9\""
    );
    document["session"] = json!({"at_ms": 5, "user_actions": [1, 1]});
    assert_eq!(
        error_of(&document),
        "session.user_actions[1]: indices go in increasing order; 1 comes after 1"
    );
    document["session"] = json!({"at_ms": 5, "user_actions": [2]});
    assert_eq!(
        error_of(&document),
        "session.user_actions[0]: expected an integer from 0 to 1 (an index into actions), found 2"
    );
    document["session"] = json!({"at_ms": 500});
    assert_eq!(
        error_of(&document),
        "session.at_ms: expected an integer from 0 to 100 (run_until_ms), found 500"
    );
    document["session"] = json!({"at_ms": 5, "scenario": "../etc"});
    assert!(error_of(&document).starts_with("session.scenario: expected a scenario name"));
    document["session"] = json!({"at_ms": 5, "story_open": 1});
    assert_eq!(
        error_of(&document),
        "session.story_open: expected true or false, found 1"
    );
}
