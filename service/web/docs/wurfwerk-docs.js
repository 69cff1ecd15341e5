// /docs: Swagger UI from the flask-swagger-ui package, started with the settings of
// service/platform/endpoints/web.py and a plugin for what axe-core finds in its markup
// (tests/web/test_docs.py runs axe on the first view and with operations open).
(function () {
  "use strict";

  const config = JSON.parse(document.getElementById("swagger-ui-config").textContent);

  // A ref that names the control `selector` finds in the wrapped component's markup when it mounts.
  function naming(selector, name) {
    return (element) => {
      const control = element && element.querySelector(selector);
      if (control && !control.getAttribute("aria-label")) control.setAttribute("aria-label", name);
    };
  }

  // Each operation's table of answers is a region without a name, so open operations give a page of
  // regions alike: name it after its operation.
  function nameResponsesRegion(props) {
    return (element) => {
      const table = element && element.querySelector("table.responses-table[role=region]");
      if (table) table.setAttribute("aria-label", `Responses of ${props.method.toUpperCase()} ${props.path}`);
    };
  }

  function AccessibleMarkup(system) {
    const h = system.React.createElement;
    return {
      wrapComponents: {
        // Deep links are anchors inside the button that opens an operation, a control inside a control.
        // The address still follows what is open (deepLinking), and an address with #/tag/operation still
        // opens it: only the anchor goes, its text stays.
        DeepLink: () => (props) => h("span", null, props.text),
        // The tags are h3 headings under the title's h1: the level between them.
        operations: (Original) => (props) => h(system.React.Fragment, null,
          h("h2", { className: "wurfwerk-visually-hidden" }, "Operations"), h(Original, props)),
        // Swagger UI puts its operations into <main>, and the title, servers and Authorize above it into
        // no landmark: a banner and two named regions.
        InfoContainer: (Original) => (props) => h("header", { role: "banner" }, h(Original, props)),
        // The servers select sits inside an empty label.
        ServersContainer: (Original) => (props) => h("section", { "aria-label": "Server", ref: naming("select", "Server") },
          h(Original, props)),
        // "Try it out": the body's textarea has no label.
        RequestBodyEditor: (Original) => (props) => h("div", { ref: naming("textarea", "Request body") },
          h(Original, props)),
        responses: (Original) => (props) => h("div", { ref: nameResponsesRegion(props) }, h(Original, props)),
        // The Authorize dialog opens here with an h3: an h2 before it.
        AuthorizeBtnContainer: (Original) => (props) => h("section", { "aria-labelledby": "wurfwerk-authorization" },
          h("h2", { id: "wurfwerk-authorization", className: "wurfwerk-visually-hidden" }, "Authorization"),
          h(Original, props)),
        // Its close button is an icon without a name.
        authorizationPopup: (Original) => (props) => h("div", { ref: naming(".close-modal", "Close") },
          h(Original, props)),
        // "Authorize" and "Logout" are named "Apply credentials" and "Remove authorization", not what they
        // say: a button with text is named by its text.
        Button: (Original) => (props) => h(Original,
          typeof props.children === "string" ? { ...props, "aria-label": undefined } : props),
      },
    };
  }

  window.addEventListener("load", () => {
    window.ui = SwaggerUIBundle({
      ...config,
      dom_id: "#swagger-ui",
      presets: [SwaggerUIBundle.presets.apis],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl, AccessibleMarkup],
    });
  });
})();
